# shellcheck shell=bash
# Host side of the VM scenarios (tests/vm/scenarios/*.sh): builds or reuses
# the cached guest, makes sparse disk images, boots the guest once per guest
# script with the freshly built stripeplan in a 9p share, and brings the
# script's log, its exit status and the serial console back.  Every boot is
# bounded (VM_BOOT_SECONDS); the guest is killed and every image removed on
# every path out of the scenario (EXIT trap).
set -u

: "${STRIPEPLAN:?}" "${SRCDIR:?}" "${VM_CACHE:?}"
VM_DIR=$SRCDIR/tests/vm
VM_BOOT_SECONDS=${VM_BOOT_SECONDS:-420}
VM_MEM_MIB=${VM_MEM_MIB:-2048}
VM_NAME=$(basename "$0" .sh)
VM_LOGS=$VM_CACHE/logs/$VM_NAME
VM_RUN=""
VM_QEMU_PID=""
VM_ARGS=()
vm_disk_count=0
vm_have_scsi=0
vm_hbas=()

vm_cleanup() {
	local pid
	if [ -n "$VM_QEMU_PID" ]; then
		kill -KILL "$VM_QEMU_PID" 2>/dev/null
		wait "$VM_QEMU_PID" 2>/dev/null
	fi
	if [ -n "$VM_RUN" ] && [ -f "$VM_RUN/qemu.pid" ]; then
		pid=$(cat "$VM_RUN/qemu.pid")
		kill -KILL "$pid" 2>/dev/null
	fi
	[ -z "$VM_RUN" ] || rm -rf "$VM_RUN"
}
trap vm_cleanup EXIT
trap 'exit 130' INT TERM HUP

vm_die() {
	echo "vm/$VM_NAME: $*" >&2
	exit 1
}

# vm_init: the guest (built once per recipe) and this scenario's scratch dir
vm_init() {
	[ "$(id -u)" = 0 ] || vm_die "needs root (debootstrap, 9p share as root)"
	VM_GUEST=$(bash "$VM_DIR/build-guest.sh" "$VM_CACHE") || vm_die "the guest could not be built"
	VM_RUN=$(mktemp -d "$VM_CACHE/run-$VM_NAME.XXXXXX")
	mkdir -p "$VM_RUN/disks" "$VM_RUN/share"
	rm -rf "$VM_LOGS"
	mkdir -p "$VM_LOGS"
	vm_share_stripeplan
}

# The binary under test with the libraries it loads, started through their
# own loader, so it runs the same in the initramfs and in the debootstrap root.
vm_share_stripeplan() {
	local sp=$VM_RUN/share/sp lib
	mkdir -p "$sp/lib" "$VM_RUN/share/bin"
	cp "$STRIPEPLAN" "$sp/stripeplan"
	ldd "$STRIPEPLAN" | awk '/=> \// { print $3 } /^\t\// { print $1 }' | while read -r lib; do
		cp -L "$lib" "$sp/lib/"
	done
	cat >"$VM_RUN/share/bin/stripeplan" <<'EOF'
#!/bin/sh
exec /share/sp/lib/ld-linux-x86-64.so.2 --library-path /share/sp/lib /share/sp/stripeplan "$@"
EOF
	chmod +x "$VM_RUN/share/bin/stripeplan"
	cp "$VM_DIR/guest/lib.bash" "$VM_RUN/share/lib.bash"
}

# vm_image NAME SIZE: a sparse raw image, kept for the scenario's later boots
vm_image() {
	truncate -s "$2" "$VM_RUN/disks/$1"
}

# vm_scsi NAME [PROPS]: attach image NAME as a SCSI disk (scsi-hd on
# virtio-scsi), PROPS as in "serial=m0,wwn=0x5000c500a1b2c3d4"
vm_scsi() {
	local id=d$vm_disk_count
	vm_disk_count=$((vm_disk_count + 1))
	if [ "$vm_have_scsi" = 0 ]; then
		VM_ARGS+=(-device "virtio-scsi-pci,id=scsi0")
		vm_have_scsi=1
	fi
	VM_ARGS+=(-drive "file=$VM_RUN/disks/$1,format=raw,if=none,id=$id,cache=unsafe,discard=unmap"
		-device "scsi-hd,drive=$id,bus=scsi0.0,channel=0,scsi-id=0,lun=$vm_disk_count${2:+,$2}")
}

# vm_hba MODEL NAME TARGET [PROPS]: attach image NAME as a scsi-hd on QEMU's
# emulated RAID HBA MODEL (megasas: the LSI SAS1078; megasas-gen2: the SAS
# 2108), one HBA per model, at scsi-id TARGET (its logical drive's number)
vm_hba() {
	local model=$1 id=d$vm_disk_count bus=hba-$1
	vm_disk_count=$((vm_disk_count + 1))
	case " ${vm_hbas[*]} " in
	*" $model "*) ;;
	*)
		VM_ARGS+=(-device "$model,id=$bus")
		vm_hbas+=("$model")
		;;
	esac
	VM_ARGS+=(-drive "file=$VM_RUN/disks/$2,format=raw,if=none,id=$id,cache=unsafe"
		-device "scsi-hd,drive=$id,bus=$bus.0,scsi-id=$3,lun=0${4:+,$4}")
}

# vm_jbod MODEL NAME: attach image NAME as the one disk of another MODEL HBA
# whose firmware passes its disks through (use_jbod=on, off by default;
# hw/scsi/megasas.c: no logical drive listed, each disk a system PD).  It
# sits at scsi-id 0, LUN 0: QEMU numbers a PD (scsi-id << 8) | LUN and the
# guest's megaraid_sas reads that number as channel * 128 + target, so only
# there are the driver's address and QEMU's the same disk
vm_jbod() {
	local id=d$vm_disk_count bus=jbod-$1
	vm_disk_count=$((vm_disk_count + 1))
	VM_ARGS+=(-device "$1,id=$bus,use_jbod=on"
		-drive "file=$VM_RUN/disks/$2,format=raw,if=none,id=$id,cache=unsafe"
		-device "scsi-hd,drive=$id,bus=$bus.0,scsi-id=0,lun=0")
}

# vm_virtio NAME [PROPS]: attach image NAME as a virtio-blk disk
vm_virtio() {
	local id=d$vm_disk_count
	vm_disk_count=$((vm_disk_count + 1))
	VM_ARGS+=(-drive "file=$VM_RUN/disks/$1,format=raw,if=none,id=$id,cache=unsafe"
		-device "virtio-blk-pci,drive=$id${2:+,$2}")
}

vm_reset_disks() {
	VM_ARGS=()
	vm_disk_count=0
	vm_have_scsi=0
	vm_hbas=()
}

# KVM where it really works; TCG on a host that is itself a PVM guest
# (there /dev/kvm opens, -cpu host aborts and other models crawl)
vm_accel() {
	if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ] && [ "${VM_ACCEL:-}" != tcg ]; then
		echo "-accel kvm -cpu host"
	else
		echo "-accel tcg -cpu max"
	fi
}

# vm_boot LABEL GUEST_SCRIPT [KERNEL ARGS]: boot once with the disks attached
# so far, run GUEST_SCRIPT in the guest, return its exit status (124 when the
# boot ran out of time, 125 when the guest left no result).  A kernel that
# died before /init ran (TCG on a loaded host can fail the kernel's timer
# check; no_timer_check avoids most of it) has touched no disk: that boot
# is tried once more.
vm_boot() {
	local rc=0
	vm_boot_once "$@" || rc=$?
	if [ "$rc" = 125 ] && ! grep -q '^init: started' "$VM_LOGS/$1.console"; then
		echo "vm: the kernel died before /init; booting '$1' again"
		mv "$VM_LOGS/$1.console" "$VM_LOGS/$1.console.1"
		rc=0
		vm_boot_once "$@" || rc=$?
	fi
	return "$rc"
}

vm_boot_once() {
	local label=$1 script=$2 append="console=ttyS0 panic=-1 loglevel=4 no_timer_check ${3:-}"
	local rc start secs
	local -a accel
	read -ra accel <<<"$(vm_accel)"
	rm -rf "$VM_RUN/share/out"
	mkdir -p "$VM_RUN/share/out"
	cp "$script" "$VM_RUN/share/scenario.sh"
	start=$(date +%s)
	timeout -k 5 "$VM_BOOT_SECONDS" qemu-system-x86_64 "${accel[@]}" -smp 2 -m "$VM_MEM_MIB" \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		-serial "file:$VM_LOGS/$label.console" -pidfile "$VM_RUN/qemu.pid" \
		-kernel "$VM_GUEST/vmlinuz" -initrd "$VM_GUEST/initrd.cpio" -append "$append" \
		-device virtio-rng-pci \
		-virtfs "local,path=$VM_RUN/share,mount_tag=share,security_model=none,id=share" \
		"${VM_ARGS[@]}" >"$VM_LOGS/$label.qemu" 2>&1 &
	VM_QEMU_PID=$!
	rc=0
	wait "$VM_QEMU_PID" || rc=$?
	VM_QEMU_PID=""
	secs=$(($(date +%s) - start))
	echo "vm: boot '$label' ($(basename "$script")) took ${secs}s" >>"$VM_CACHE/timings"
	echo "== boot '$label': $(basename "$script"), ${secs}s (limit ${VM_BOOT_SECONDS}s)"
	cp "$VM_RUN/share/out/log" "$VM_LOGS/$label.log" 2>/dev/null
	cat "$VM_LOGS/$label.log" 2>/dev/null
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "vm: boot '$label' ran out of time after ${secs}s; console tail:"
		tail -30 "$VM_LOGS/$label.console"
		return 124
	fi
	if [ ! -s "$VM_RUN/share/out/rc" ]; then
		echo "vm: boot '$label' left no result (qemu exited $rc); console tail:"
		tail -30 "$VM_LOGS/$label.console"
		cat "$VM_LOGS/$label.qemu"
		return 125
	fi
	return "$(cat "$VM_RUN/share/out/rc")"
}
