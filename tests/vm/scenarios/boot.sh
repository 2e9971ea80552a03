#!/bin/bash
# Boot persistence on a debootstrap root, three QEMU processes: the installer
# snippets install (initramfs), a cold boot of the installed system, and a
# cold boot with the array's disk removed (tests/vm/guest/{install,booted,missing}.sh).
. "$SRCDIR/tests/vm/lib.bash"
vm_init
cp --sparse=always "$VM_GUEST/root.ext4" "$VM_RUN/disks/root"
vm_image arr 2G
vm_image ks 2G
# the kickstart's %post with --stack luks,lvm: a disk of its own
vm_image stk 2G
rc=0
# the install boot has a scratch SCSI disk ahead of the array's LUN, and
# install.sh makes it sda and the array sdb; the second boot has the array
# alone, as sda: booted.sh checks that the files apply wrote for sdb still
# tune it and that check finds no drift in them.  (The extra disk is in the
# first boot, where the guest script can fix the order, because the order
# sd names two LUNs in at boot varies.)
vm_image scratch 64M
vm_virtio root "serial=ROOT"
vm_scsi scratch "serial=SCR0001,wwn=0x5000c500a1b2c3e5"
vm_scsi arr "serial=ARR0001,wwn=0x5000c500a1b2c3d4"
vm_virtio ks "serial=KS00001"
vm_virtio stk "serial=KS00002"
vm_boot install "$VM_DIR/guest/install.sh" || rc=1
if [ "$rc" = 0 ]; then
	vm_reset_disks
	vm_virtio root "serial=ROOT"
	vm_scsi arr "serial=ARR0001,wwn=0x5000c500a1b2c3d4"
	vm_boot booted "$VM_DIR/guest/booted.sh" sp.root=LABEL=vmroot || rc=1
	vm_reset_disks
	vm_virtio root "serial=ROOT"
	vm_boot missing "$VM_DIR/guest/missing.sh" sp.root=LABEL=vmroot || rc=1
fi
exit "$rc"
