#!/bin/bash
# Builds the test guest from Debian packages on this machine and prints the
# directory that holds it:
#   vmlinuz        the stock Debian kernel (apt-get download + dpkg -x; never
#                  installed on this machine)
#   initrd.cpio    busybox-static, bash and the real storage tools with their
#                  ldd libraries, udevd and its rules, the module closure, /init
#   root.ext4      a debootstrap minbase Debian 12 (systemd, udev, mdadm,
#                  xfsprogs, e2fsprogs) in an ext4 image made by mke2fs -d
# Usage: build-guest.sh CACHE_DIR.  The kernel and initramfs live in
# CACHE_DIR/guest-KEY, the root image in CACHE_DIR/root-KEY (linked from the
# guest dir), each KEY a hash of its part of this recipe, /init, the kernel
# and the versions of the packages taken: a changed recipe rebuilds what it
# changed and removes the old one.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: build-guest.sh CACHE_DIR}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

MIRROR=${STRIPEPLAN_VM_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
# what the guest's tools come from: this machine's packages (scripts/setup
# installs them) and, for those CI does not install, unpacked .debs
HOST_PACKAGES="bash xfsprogs e2fsprogs parted util-linux fdisk udev kmod libc6 mount"
DEB_PACKAGES="mdadm busybox-static"
MODULES="virtio_pci virtio_blk virtio_scsi sd_mod scsi_debug virtio_rng md_mod raid0 raid1
raid10 raid456 xfs ext4 9p 9pnet_virtio crc32c_generic crc32c-intel"
# the initramfs alone: device-mapper, dm-crypt and the ciphers LUKS2 takes by
# default (aes-xts-plain64, the keyslots through AF_ALG), for the stack
# scenario; the scenario loads them (the kernel loads the ciphers itself)
DM_MODULES="dm_mod dm_crypt aesni_intel aes_generic xts algif_skcipher algif_hash af_alg"
# the initramfs alone: the RAID HBAs QEMU emulates, loaded by the scenario
# that attaches them (megaraid_sas drives -device megasas and megasas-gen2)
HBA_MODULES="megaraid_sas"
ROOT_PACKAGES="systemd-sysv,udev,kmod,mdadm,xfsprogs,e2fsprogs,util-linux,libparted2,libjson-c5"
# the tools a scenario may run in the guest, with the libraries ldd names
TOOLS="bash mkfs.xfs xfs_db xfs_info xfs_spaceman xfs_admin mke2fs mkfs.ext4 mkfs.ext3 dumpe2fs
tune2fs e2fsck parted sfdisk blkid lsblk findmnt mount umount losetup blockdev wipefs partx blkdiscard
switch_root udevadm kmod sha256sum cryptsetup lvm dmsetup"

kernel_package() {
	apt-cache depends linux-image-amd64 | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

# key WORDS...: a short hash of WORDS, the named functions' text and the
# versions of what goes into the guest; a changed recipe gets a new key
key() {
	{
		printf '%s\n' "$@"
		kernel_package
		apt-cache policy "$(kernel_package)" | awk '/Candidate:/ { print $2 }'
	} | sha256sum | cut -c1-16
}

initrd_key() {
	local p
	# shellcheck disable=SC2086 # one package name per word
	key "$MODULES" "$DM_MODULES" "$HBA_MODULES" "$TOOLS" "$(declare -f put put_with_libs module_closure build_initrd)" \
		"$(cat "$here/init")" "$(dpkg-query -W $HOST_PACKAGES)" \
		"$(for p in $DEB_PACKAGES; do apt-cache policy "$p" | awk -v p="$p" '/Candidate:/ { print p, $2 }'; done)"
}

root_key() {
	key "$MODULES" "$ROOT_PACKAGES" "$SUITE" "$(declare -f module_closure build_root)"
}

# put TREE FILE [DEST]: FILE (a path on this machine) into TREE at DEST, by
# default the same path, /bin, /sbin and /lib folded into /usr as Debian 12 does
put() {
	local tree=$1 src=$2 dst=${3:-}
	[ -n "$dst" ] || dst=$(realpath -s "$src")
	case $dst in
	/bin/* | /sbin/* | /lib/* | /lib64/*) dst=/usr$dst ;;
	esac
	[ -e "$tree$dst" ] && return 0
	mkdir -p "$(dirname "$tree$dst")"
	cp -L "$src" "$tree$dst"
}

# put_with_libs TREE FILE [DEST]: FILE and every library ldd says it loads
put_with_libs() {
	local tree=$1 bin=$2 lib
	put "$tree" "$bin" "${3:-}"
	{ ldd "$bin" 2>/dev/null || :; } | awk '/=> \// { print $3 } /^\t\// { print $1 }' | while read -r lib; do
		put "$tree" "$lib"
	done
}

# module_closure KDIR KVER TREE: MODULES and all they depend on, resolved by
# modprobe itself from the unpacked kernel KDIR, into TREE/usr/lib/modules
module_closure() {
	local kdir=$1 kver=$2 tree=$3 m path
	for m in $MODULES; do
		modprobe -d "$kdir" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
	done | sort -u | while read -r path; do
		mkdir -p "$(dirname "$tree/usr/${path#"$kdir"/}")"
		cp "$path" "$tree/usr/${path#"$kdir"/}"
	done
	cp "$kdir/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$tree/usr/lib/modules/$kver/"
	depmod -b "$tree/usr" "$kver"
}

build_initrd() {
	local work=$1 tree=$1/initrd kdir=$1/kernel kver=$2 tool path m d
	mkdir -p "$tree"/{dev,proc,sys,run,tmp,share,newroot,etc,root,var/tmp,usr/bin,usr/sbin,usr/lib64}
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$tree/$d"; done
	for tool in $TOOLS; do
		path=$(command -v "$tool") || { echo "build-guest: no $tool on this machine" >&2; return 1; }
		put_with_libs "$tree" "$path"
	done
	put_with_libs "$tree" "$work/deb/sbin/mdadm" /usr/sbin/mdadm
	mkdir -p "$tree/usr/lib/systemd"
	ln -s ../../bin/udevadm "$tree/usr/lib/systemd/systemd-udevd"
	for tool in modprobe insmod lsmod rmmod depmod modinfo; do ln -s ../bin/kmod "$tree/usr/sbin/$tool"; done
	# udev: its helpers and the rules that name disks and md arrays
	for tool in scsi_id ata_id; do put_with_libs "$tree" "/usr/lib/udev/$tool"; done
	mkdir -p "$tree/usr/lib/udev/rules.d" "$tree/etc/udev/rules.d"
	for m in 50-udev-default 60-block 60-persistent-storage 99-systemd; do
		cp "/usr/lib/udev/rules.d/$m.rules" "$tree/usr/lib/udev/rules.d/"
	done
	cp "$work"/deb/lib/udev/rules.d/63-md-raid-arrays.rules "$tree/usr/lib/udev/rules.d/"
	# device-mapper's rules (nodes, /dev/mapper and /dev/VG/LV names, the
	# cookie lvm and cryptsetup wait on), not 69-lvm's autoactivation
	for m in 55-dm 56-lvm 60-persistent-storage-dm 95-dm-notify; do
		cp "/usr/lib/udev/rules.d/$m.rules" "$tree/usr/lib/udev/rules.d/"
	done
	for tool in pvcreate pvs pvremove vgcreate vgs vgremove vgchange lvcreate lvs lvremove lvchange; do
		ln -s lvm "$tree/usr/sbin/$tool"
	done
	# what lvm writes beside the disks stays off: no backup or archive of
	# the VGs a scenario makes
	mkdir -p "$tree/etc/lvm"
	printf 'backup {\n\tbackup = 0\n\tarchive = 0\n}\n' >"$tree/etc/lvm/lvm.conf"
	cp /etc/mke2fs.conf "$tree/etc/"
	printf 'root:x:0:0:root:/root:/bin/bash\n' >"$tree/etc/passwd"
	printf 'root:x:0:\ndisk:x:6:\ntape:x:26:\ncdrom:x:24:\ndialout:x:20:\nkvm:x:106:\n' >"$tree/etc/group"
	: >"$tree/etc/fstab"
	mkdir -p "$tree/etc/mdadm"
	printf 'MAILADDR root\n' >"$tree/etc/mdadm/mdadm.conf"
	# busybox for everything the real tools do not cover
	cp "$work/deb/bin/busybox" "$tree/usr/bin/busybox"
	for tool in $("$tree/usr/bin/busybox" --list); do
		[ -e "$tree/usr/bin/$tool" ] || [ -e "$tree/usr/sbin/$tool" ] || ln -s busybox "$tree/usr/bin/$tool"
	done
	MODULES="$MODULES $DM_MODULES $HBA_MODULES" module_closure "$kdir" "$kver" "$tree"
	install -m 0755 "$here/init" "$tree/init"
	(cd "$tree" && find . | LC_ALL=C sort | cpio --quiet -o -H newc) >"$work/out/initrd.cpio"
}

build_root() {
	local work=$1 kver=$2 root=$1/root kdir=$1/kernel out=$3
	debootstrap --variant=minbase --include="$ROOT_PACKAGES" "$SUITE" "$root" "$MIRROR" \
		>"$work/debootstrap.log" 2>&1 || {
		tail -20 "$work/debootstrap.log" >&2
		return 1
	}
	# the modules the initramfs loads, for udev's later requests
	module_closure "$kdir" "$kver" "$root"
	printf '/dev/vda / ext4 defaults 0 1\n' >"$root/etc/fstab"
	echo stripeplan-vm >"$root/etc/hostname"
	# the scenario runs from the 9p share once the system is up, then powers off
	cat >"$root/etc/systemd/system/stripeplan-vm.service" <<'EOF'
[Unit]
Description=stripeplan VM scenario
After=multi-user.target
[Service]
Type=oneshot
StandardOutput=journal+console
ExecStartPre=/bin/mkdir -p /share
ExecStartPre=/bin/mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share /share
ExecStart=/bin/bash -c 'bash /share/scenario.sh >/share/out/log 2>&1; echo $? >/share/out/rc; sync'
ExecStartPost=/bin/systemctl --no-block poweroff
[Install]
WantedBy=multi-user.target
EOF
	mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
	ln -s ../stripeplan-vm.service "$root/etc/systemd/system/multi-user.target.wants/"
	# no getty or timers competing for the slow emulated CPUs
	systemctl --root="$root" mask serial-getty@ttyS0.service getty@tty1.service \
		apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service \
		mdmonitor.service mdcheck_start.timer mdmonitor-oneshot.timer >/dev/null 2>&1 || true
	rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
	mkdir -p "$out"
	mke2fs -q -t ext4 -L vmroot -d "$root" "$out/root.ext4" 1536M >/dev/null
}

work=""
main() {
	local ikey rkey dir rdir kpkg kver p
	exec 9>"$cache/.lock"
	flock 9
	kpkg=$(kernel_package)
	if [ -z "$kpkg" ]; then
		apt-get update -q >/dev/null
		kpkg=$(kernel_package)
	fi
	kver=${kpkg#linux-image-}
	ikey=$(initrd_key)
	rkey=$(root_key)
	dir=$cache/guest-$ikey
	rdir=$cache/root-$rkey
	if [ -f "$dir/complete" ] && [ -f "$rdir/complete" ]; then
		echo "$dir"
		return 0
	fi
	echo "build-guest: building guest $ikey, root $rkey" >&2
	rm -rf "$cache"/build.*
	work=$(mktemp -d "$cache/build.XXXXXX")
	trap 'rm -rf "${work:?}"' EXIT
	mkdir -p "$work/debs" "$work/deb" "$work/kernel" "$work/out"
	# shellcheck disable=SC2086 # one package name per word
	(cd "$work/debs" && apt-get download -q "$kpkg" $DEB_PACKAGES >/dev/null 2>&1) || {
		echo "build-guest: apt-get download $kpkg $DEB_PACKAGES failed" >&2
		return 1
	}
	dpkg -x "$work/debs/$kpkg"_*.deb "$work/kernel"
	for p in $DEB_PACKAGES; do dpkg -x "$work/debs/$p"_*.deb "$work/deb"; done
	depmod -b "$work/kernel" "$kver"
	if [ ! -f "$rdir/complete" ]; then
		find "$cache" -maxdepth 1 -name 'root-*' ! -name "root-$rkey" -exec rm -rf {} +
		build_root "$work" "$kver" "$work/root-out"
		rm -rf "$rdir"
		mv "$work/root-out" "$rdir"
		touch "$rdir/complete"
	fi
	find "$cache" -maxdepth 1 -name 'guest-*' -exec rm -rf {} +
	cp "$work/kernel/boot/vmlinuz-$kver" "$work/out/vmlinuz"
	build_initrd "$work" "$kver"
	echo "$kver" >"$work/out/kernel-version"
	ln -s "../root-$rkey/root.ext4" "$work/out/root.ext4"
	mv "$work/out" "$dir"
	touch "$dir/complete"
	echo "$dir"
}

main
