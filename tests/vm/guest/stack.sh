#!/bin/bash
# The stack the issue's "done when" names, on the issue's 192 KiB stripe:
# md RAID5 4 x 64 KiB, LUKS2 on the array, LVM on the LUKS2 volume, XFS on
# the LV, each made by hand with the numbers `stripeplan plan --stack
# luks,lvm` prints (its text), then read back with other tools: the dm
# tables (dmsetup table: the crypt target's data offset, the linear
# target's start on the PV), pvs's pe_start, the topology the kernel
# stacks through dm, xfs_db's sunit/swidth.  Then what cryptsetup and
# pvcreate pick by themselves on the same array, and what check says of
# each bottom layer.  One boot.
# shellcheck source=lib.bash disable=SC2054 # commas are in --stack values
. /share/lib.bash
ROOT=/tmp/root
mkdir -p "$ROOT/etc"
STRIPE=196608
# the tools wait on udev's cookie for every dm change (95-dm-notify.rules)
for m in dm_mod dm_crypt; do
	expect_rc 0 "modprobe $m" modprobe "$m"
done

members=()
for i in 0 1 2 3; do members+=("$(disk_by_serial "s$i")"); done
create_md /dev/md5 5 64 "${members[@]}"
expect_eq "md5 optimal_io_size (3 data disks x 64 KiB)" "$(cat /sys/block/md5/queue/optimal_io_size)" "$STRIPE"

S=(--controller md --fs xfs --mountpoint /data --stack luks,lvm --vg vgs --lv data)
expect_rc 0 "plan --stack luks,lvm on md5" stripeplan plan "${S[@]}" --device /dev/md5
cp "$OUT" /tmp/plan
cat /tmp/plan
# the numbers, as the text gives them to a person
read -r offset sector < <(sed -n 's/.*luksFormat --type luks2 --offset \([0-9]*\) --sector-size \([0-9]*\) .*/\1 \2/p' /tmp/plan)
align=$(sed -n 's/.*(pvcreate --dataalignment \([0-9]*k\) --dataalignmentoffset 0).*/\1/p' /tmp/plan)
extent=$(sed -n 's/.*(vgcreate -s \([0-9]*k\)).*/\1/p' /tmp/plan)
read -r extents lv vg < <(sed -n 's/.*(lvcreate -l \([0-9]*\) -n \([^ ]*\) \([^)]*\)).*/\1 \2 \3/p' /tmp/plan)
read -r -a mkfs < <(sed -n 's/^ *command *\(mkfs\.xfs .*\)$/\1/p' /tmp/plan)
into=$(sed -n 's/.*; byte \([0-9]*\) of \/dev\/md5$/\1/p' /tmp/plan)
# the LV on top reads ahead as md5 is planned to (md's 32768 KiB)
ra=$(sed -n 's/^ *read-ahead *[0-9]* KiB (lvcreate -r \([0-9]*\), in 512-byte sectors).*/\1/p' /tmp/plan)
luks_name=$(sed -n 's|^  LUKS2 *\/dev\/mapper\/\([^ ]*\) on /dev/md5$|\1|p' /tmp/plan)
echo "plan: offset=$offset sector=$sector align=$align extent=$extent extents=$extents lv=$lv vg=$vg into=$into luks=$luks_name mkfs=${mkfs[*]}"
expect_rc 0 "the plan names every number" test -n "$offset" -a -n "$sector" -a -n "$align" \
	-a -n "$extent" -a -n "$extents" -a -n "$into" -a -n "$luks_name" -a "${#mkfs[@]}" -gt 2
expect_eq "the plan's filesystem starts on a whole stripe" "$((into % STRIPE))" 0
expect_eq "the plan's read-ahead on the LV (lvcreate -r, sectors) = md5's read_ahead_kb x 2" "$ra" 65536

# ---- made by hand with the plan's numbers ---------------------------------
head -c 64 /dev/urandom >/tmp/key
chmod 0600 /tmp/key
# a cheap PBKDF: argon2's default gigabyte and two seconds are no part of
# what is tested, and the emulated CPU is slow
FAST=(--pbkdf pbkdf2 --pbkdf-force-iterations 1000)
expect_rc 0 "luksFormat --offset $offset --sector-size $sector" \
	cryptsetup luksFormat -q --type luks2 --offset "$offset" --sector-size "$sector" "${FAST[@]}" \
	--key-file /tmp/key /dev/md5
expect_rc 0 "cryptsetup open" cryptsetup open --key-file /tmp/key /dev/md5 "$luks_name"
expect_rc 0 "pvcreate --dataalignment $align" \
	pvcreate -q --dataalignment "$align" --dataalignmentoffset 0 "/dev/mapper/$luks_name"
expect_rc 0 "vgcreate -s $extent $vg" vgcreate -q -s "$extent" "$vg" "/dev/mapper/$luks_name"
expect_rc 0 "lvcreate -l $extents -n $lv -r $ra $vg" lvcreate -q -y -Wy -Zy -l "$extents" -n "$lv" -r "$ra" "$vg"
udevadm settle
expect_rc 0 "/dev/$vg/$lv exists" test -b "/dev/$vg/$lv"
expect_rc 0 "mkfs as planned: ${mkfs[*]}" "${mkfs[@]}"

# ---- read back ------------------------------------------------------------
crypt_table=$(dmsetup table "$luks_name")
lv_table=$(dmsetup table "$vg-$lv")
# the crypt line names the key by its kernel keyring description, not the key
# shellcheck disable=SC2001 # a pattern, not a fixed string
echo "dm: $luks_name: $(sed 's/:[0-9]*:logon:[^ ]*/:KEYRING-KEY/' <<<"$crypt_table")"
echo "dm: $vg-$lv: $lv_table"
crypt_off=$(awk '{ print $NF }' <<<"$crypt_table")
lv_off=$(awk '$3 == "linear" { print $5 }' <<<"$lv_table")
expect_eq "dm-crypt data offset (512-byte sectors, dmsetup table)" "$crypt_off" "$offset"
expect_eq "the crypt target's sector size" "$(grep -o 'sector_size:[0-9]*' <<<"$crypt_table" | cut -d: -f2)" \
	"$([ "$sector" = 512 ] || echo "$sector")"
pe_start=$(pvs --noheadings --units b --nosuffix -o pe_start "/dev/mapper/$luks_name" | tr -d ' ')
expect_eq "LV's linear start on the PV = pe_start (pvs)" "$((lv_off * 512))" "$pe_start"
expect_eq "pe_start is a whole stripe" "$((pe_start % STRIPE))" 0
expect_eq "extent size (vgs)" "$(vgs --noheadings --units b --nosuffix -o vg_extent_size "$vg" | tr -d ' ')" \
	"$((${extent%k} * 1024))"
expect_eq "LV extents (lvs)" "$(lvs --noheadings -o seg_size_pe "$vg/$lv" | tr -d ' ')" "$extents"
total=$((crypt_off * 512 + pe_start))
expect_eq "the XFS starts where the plan says (LUKS2 offset + pe_start)" "$total" "$into"
expect_eq "... on a whole stripe of md5" "$((total % STRIPE))" 0
lvdm=$(basename "$(readlink -f "/dev/$vg/$lv")")
cryptdm=$(basename "$(readlink -f "/dev/mapper/$luks_name")")
# the chain as sysfs gives it: each layer's holder and slave, and dm's
# own names (sysfs has no table: the offsets are dmsetup's, the DM ioctl's)
echo "sysfs /sys/block/$lvdm/dm: $(cd "/sys/block/$lvdm/dm" && echo *)"
expect_eq "the LV's slave (sysfs) is the LUKS2 mapping" "$(ls "/sys/block/$lvdm/slaves")" "$cryptdm"
expect_eq "the LUKS2 mapping's slave is md5" "$(ls "/sys/block/$cryptdm/slaves")" md5
expect_eq "md5's holder is the LUKS2 mapping" "$(ls /sys/block/md5/holders)" "$cryptdm"
expect_eq "the LV's dm name" "$(cat "/sys/block/$lvdm/dm/name")" "$vg-$lv"
expect_eq "the LUKS2 mapping's dm uuid says CRYPT-LUKS2" "$(cut -d- -f1-2 "/sys/block/$cryptdm/dm/uuid")" CRYPT-LUKS2
expect_eq "the LV's dm uuid says LVM" "$(cut -d- -f1 "/sys/block/$lvdm/dm/uuid")" LVM
expect_eq "the LV's alignment_offset as the kernel stacks it" "$(cat "/sys/block/$lvdm/alignment_offset")" 0
expect_eq "the LV's optimal_io_size, the array's through both layers" \
	"$(cat "/sys/block/$lvdm/queue/optimal_io_size")" "$STRIPE"
expect_eq "xfs sunit swidth (blocks) on the LV" \
	"$(xfs_sb "/dev/$vg/$lv" unit) $(xfs_sb "/dev/$vg/$lv" width)" "16 48"
mkfs_derived "/dev/$vg/$lv" >/tmp/derived
expect_eq "what mkfs.xfs derives on the LV alone" "$(cat /tmp/derived)" "16 48"

# ---- check --stack of the stack made by hand with the plan's numbers ------
# the luks and lvm steps read it back (header, dm mappings in sysfs) and the
# filesystem on its top: all of it is the plan's
sb=$(dd if=/dev/md5 bs=1M count=20 2>/dev/null | sha256sum)
sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" >"$OUT" 2>"$ERR" || true
sed 's/^/    > /' "$OUT"
expect_out "check --stack luks,lvm on the stack made by hand: its luks step matches" \
	"\] luks +LUKS2 md5_crypt on /dev/md5, data at $((offset * 512)) B, $sector B sectors, UUID .* already matches"
expect_out "... its lvm step matches" "\] lvm +PV /dev/mapper/md5_crypt, pe_start .* already matches"
expect_out "... its filesystem step matches" "\] filesystem .* already matches"

# ---- an open LUKS2 mapping that is not the plan's: refused, nothing written --
# writes: the sectors the kernel counts written on md5's members (field 7 of
# /sys/block/X/stat), once what is cached is on the disks and md has marked
# the array clean after the last write (one superblock sector on some
# members, a moment after it goes idle: vm/scan waits the same)
writes() {
	local d
	sync
	udevadm settle
	sleep 1
	for d in "${members[@]}"; do echo "$d $(awk '{ print $7 }' "/sys/block/$d/stat")"; done
}
before=$(writes)
expect_rc 3 "apply --stack luks,lvm --luks-name other while md5_crypt holds md5: refused" \
	stripeplan apply "${S[@]}" --luks-name other --device /dev/md5 --root "$ROOT" --key-file /tmp/key --force
expect_out "... naming the holder" "is held by $cryptdm; stripeplan never touches a disk in use, even with --force"
expect_eq "sectors written on md5's members after the refusal" "$(writes)" "$before"

# ---- the layers held open: apply refuses md5 even with --force ------------
expect_rc 3 "apply --force on md5 while the LUKS2 mapping holds it: refused" \
	stripeplan apply --controller md --fs xfs --mountpoint /data --device /dev/md5 --root "$ROOT" --force
expect_out "... naming the holder" "is held by $cryptdm; stripeplan never touches a disk in use, even with --force"
expect_eq "md5's first 20 MiB after the refusal" "$(dd if=/dev/md5 bs=1M count=20 2>/dev/null | sha256sum)" "$sb"

# ---- check on md5 (a plan without --stack): the LUKS2 layer is aligned ------
# what check judges of a stack made by hand: the bottom layer's header
LUKS_ALIGNED="holds a LUKS2 volume whose data starts at 16.12 MiB, whole stripes: aligned"
expect_rc 1 "check on md5 finds LUKS2 where the plan's xfs would be" \
	sp_check --controller md --fs xfs --mountpoint /data --device /dev/md5 --root "$ROOT"
expect_out "check: the planned LUKS2 offset is on whole stripes" "$LUKS_ALIGNED"
expect_rc 1 "no LUKS2 finding is costly" grep -q "costly: .*LUKS2" "$OUT"

# ---- the tools' own choices on the same array ------------------------------
expect_rc 0 "lvremove" lvremove -q -y "$vg/$lv"
expect_rc 0 "vgremove" vgremove -q "$vg"
expect_rc 0 "pvremove" pvremove -q "/dev/mapper/$luks_name"
expect_rc 0 "cryptsetup close" cryptsetup close "$luks_name"
expect_rc 0 "wipefs md5" wipefs -aq /dev/md5
expect_rc 0 "luksFormat with cryptsetup's defaults" \
	cryptsetup luksFormat -q --type luks2 "${FAST[@]}" --key-file /tmp/key /dev/md5
def_off=$(cryptsetup luksDump /dev/md5 | awk '/^Data segments:/ { s = 1 } s && /offset:/ { print $2; exit }')
echo "cryptsetup's own data offset on md5: $def_off bytes ($(awk -v o="$def_off" -v s="$STRIPE" 'BEGIN { printf "%.2f", o / s }') stripes)"
# md exports its full stripe (optimal_io_size): cryptsetup aligns its 16 MiB
# up to it by itself, and pvcreate its pe_start (data_alignment_detection);
# a LUN that exports nothing gets 16 MiB and 1 MiB (tests/device/stack-check)
expect_eq "cryptsetup's own offset on md5 is the plan's" "$def_off" "$((offset * 512))"
expect_rc 1 "check on md5 with cryptsetup's default offset" \
	sp_check --controller md --fs xfs --mountpoint /data --device /dev/md5 --root "$ROOT"
expect_out "check: cryptsetup's own offset on md5 is aligned" "$LUKS_ALIGNED"
expect_rc 0 "cryptsetup open (defaults)" cryptsetup open --key-file /tmp/key /dev/md5 "$luks_name"
expect_rc 0 "pvcreate with its defaults" pvcreate -q "/dev/mapper/$luks_name"
def_pe=$(pvs --noheadings --units b --nosuffix -o pe_start "/dev/mapper/$luks_name" | tr -d ' ')
echo "pvcreate's own pe_start on the LUKS2 volume: $def_pe bytes; the layers' sum $((def_off + def_pe)) = $(awk -v o="$((def_off + def_pe))" -v s="$STRIPE" 'BEGIN { printf "%.2f", o / s }') stripes"
expect_eq "pvcreate's own pe_start on the LUKS2 volume is whole stripes" "$((def_pe % STRIPE))" 0
expect_rc 0 "pvremove" pvremove -q "/dev/mapper/$luks_name"
expect_rc 0 "cryptsetup close" cryptsetup close "$luks_name"

# ---- apply --stack luks,lvm: md RAID5 -> LUKS2 -> LVM -> XFS ---------------
# a LUKS2 header that is not the plan's (16 MiB: cryptsetup's default
# there is the plan's own, see above): refused without --force, nothing
# written
expect_rc 0 "wipefs md5" wipefs -aq /dev/md5
expect_rc 0 "luksFormat --offset 32768 (16 MiB, not whole stripes)" \
	cryptsetup luksFormat -q --type luks2 --offset 32768 "${FAST[@]}" --key-file /tmp/key /dev/md5
udevadm settle
before=$(writes)
expect_rc 3 "apply --stack over a LUKS2 header that is not the plan's, no --force: refused" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key
expect_out "... naming it" "crypto_LUKS.*without --force"
expect_eq "sectors written on md5's members after the refusal" "$(writes)" "$before"
expect_rc 0 "wipefs md5" wipefs -aq /dev/md5
expect_rc 0 "pvcreate on md5 with its defaults" pvcreate -q /dev/md5
before=$(writes)
expect_rc 3 "apply --stack over an existing PV, no --force: refused" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key
expect_out "... naming it" "LVM2_member.*without --force"
expect_eq "sectors written on md5's members after the refusal" "$(writes)" "$before"
expect_rc 0 "pvremove md5" pvremove -q /dev/md5
expect_rc 0 "wipefs md5" wipefs -aq /dev/md5
rm -f "$ROOT/etc/fstab"
printf '# kept\nmd5_crypt UUID=0 /old-key luks\nother UUID=1 none luks\n' >"$ROOT/etc/crypttab"
export STRIPEPLAN_TEST_FAST_PBKDF=1
expect_rc 0 "apply --dry-run --stack luks,lvm lists the layers' commands" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --dry-run
expect_out "... luksFormat with the plan's offset and sector size" \
	"cryptsetup luksFormat --batch-mode --type luks2 --offset $offset --sector-size $sector"
expect_out "... pvcreate with the plan's alignment" "lvm pvcreate --dataalignment $align --dataalignmentoffset 0 /dev/mapper/md5_crypt"
expect_out "... vgcreate with the plan's extent" "lvm vgcreate -s $extent $vg /dev/mapper/md5_crypt"
expect_out "... lvcreate with the plan's extents and read-ahead" "lvm lvcreate -l $extents -n $lv -y -Wy -Zy -r $ra $vg"
expect_out "... the crypttab line, its UUID to come" "write /tmp/root/etc/crypttab: 'md5_crypt UUID=@LUKS2_UUID@ none luks,nofail'"
expect_rc 2 "apply --stack luks without --key-file: refused" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT"
expect_out "... asking for it" "give its key with --key-file FILE"
cp /tmp/key /tmp/key-open
chmod 0640 /tmp/key-open
expect_rc 3 "apply with a group-readable key file: refused" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key-open
t0=$SECONDS
expect_rc 0 "apply --stack luks,lvm on md5" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key
echo "apply of the stack: $((SECONDS - t0)) s"
sed 's/^/    > /' "$OUT"
udevadm settle
crypt_table=$(dmsetup table md5_crypt)
lv_table=$(dmsetup table "$vg-$lv")
expect_eq "applied: dm-crypt data offset (dmsetup table)" "$(awk '{ print $NF }' <<<"$crypt_table")" "$offset"
pe_start=$(pvs --noheadings --units b --nosuffix -o pe_start /dev/mapper/md5_crypt | tr -d ' ')
expect_eq "applied: pe_start (pvs) is the plan's, whole stripes" "$pe_start $((pe_start % STRIPE))" \
	"$(($(awk '$3 == "linear" { print $5 }' <<<"$lv_table") * 512)) 0"
expect_eq "applied: extent size (vgs)" "$(vgs --noheadings --units b --nosuffix -o vg_extent_size "$vg" | tr -d ' ')" \
	"$((${extent%k} * 1024))"
expect_eq "applied: LV extents (lvs), one segment" "$(lvs --noheadings -o seg_size_pe,seg_count "$vg/$lv" | xargs)" "$extents 1"
expect_eq "applied: the XFS starts at the plan's byte of md5" "$(($(awk '{ print $NF }' <<<"$crypt_table") * 512 + pe_start))" "$into"
expect_eq "applied: xfs sunit swidth (blocks) on the LV = the array's" \
	"$(xfs_sb "/dev/$vg/$lv" unit) $(xfs_sb "/dev/$vg/$lv" width)" "16 48"
uuid=$(blkid -s UUID -o value "/dev/$vg/$lv")
expect_rc 0 "applied: fstab names the filesystem by its UUID" grep -q "^UUID=$uuid /data xfs" "$ROOT/etc/fstab"
expect_eq "applied: crypttab names the LUKS2 volume by its UUID, nofail as fstab; its other lines kept" \
	"$(cat "$ROOT/etc/crypttab")" "# kept
md5_crypt UUID=$(blkid -s UUID -o value /dev/md5) none luks,nofail
other UUID=1 none luks"
expect_rc 0 "check --strict --stack luks,lvm after apply" sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" --strict
# read-ahead: the filesystem reads through the LV's dm device, which takes
# none from below it; the plan's goes into the VG's metadata (lvcreate -r)
ra_kb() { cat "/sys/block/$(basename "$(readlink -f "$1")")/queue/read_ahead_kb"; }
lv_ra() { lvs --noheadings --units s --nosuffix -o lv_read_ahead "$vg/$lv" | tr -d ' '; }
echo "read_ahead_kb after apply: md5 $(ra_kb /dev/md5), md5_crypt $(ra_kb /dev/mapper/md5_crypt), $vg/$lv $(ra_kb "/dev/$vg/$lv"); lvs lv_read_ahead $(lv_ra)"
expect_eq "applied: the LV's read_ahead_kb (sysfs) = md5's planned 32768" "$(ra_kb "/dev/$vg/$lv")" 32768
# the tuning ran before the layers: md5 was tuned when the mapping was
# opened on it, and cryptsetup gave the mapping its read-ahead
expect_eq "applied: md5_crypt's read_ahead_kb (opened on the tuned md5) = md5's planned 32768" \
	"$(ra_kb /dev/mapper/md5_crypt)" 32768
expect_eq "applied: the LV's read-ahead in the VG's metadata (lvs, sectors)" "$(lv_ra)" "$ra"
expect_rc 0 "vgchange -an $vg (the read-ahead's reactivation)" vgchange -q -an "$vg"
expect_rc 0 "vgchange -ay $vg" vgchange -q -ay "$vg"
udevadm settle
expect_eq "... after a new activation, LVM sets it again" "$(ra_kb "/dev/$vg/$lv")" 32768
# a changed read-ahead is drift: by hand in the kernel, then in the metadata
expect_rc 0 "blockdev --setra 256 on the LV" blockdev --setra 256 "/dev/$vg/$lv"
expect_rc 1 "check --strict after blockdev --setra 256 on the LV" sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" --strict
expect_out "... the lvm step differs" "\] lvm .* DIFFERS"
expect_out "... names the LV's read-ahead" "the LV '/dev/$vg/$lv' \(dm-[0-9]*\) reads ahead 128 KiB \(queue/read_ahead_kb\), the plan 32768 KiB \(lvcreate -r $ra\)"
# less than planned costs sequential reads: suboptimal, as a disk's read-ahead
expect_rc 1 "check (no --strict) after blockdev --setra 256: below the plan is suboptimal" \
	sp_check "${S[@]}" --device /dev/md5 --root "$ROOT"
expect_out "... counted suboptimal" "findings: 0 costly, 1 suboptimal"
# (not 'lvchange -r auto': LVM's auto takes the read-ahead of the device
# below the LV, and md5_crypt, opened on the tuned md5, has the plan's)
expect_rc 0 "lvchange -r 512 (in the metadata)" lvchange -q -r 512 "$vg/$lv"
echo "read_ahead_kb with lvchange -r 512: $vg/$lv $(ra_kb "/dev/$vg/$lv"); lvs lv_read_ahead $(lv_ra)"
expect_rc 1 "check --strict after lvchange -r 512" sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" --strict
expect_out "... names the LV's read-ahead" "the LV '/dev/$vg/$lv' \(dm-[0-9]*\) reads ahead [0-9]* KiB \(queue/read_ahead_kb\), the plan 32768 KiB"
expect_rc 0 "apply sets it back" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key
sed 's/^/    > /' "$OUT"
expect_out "... with lvchange -r" "lvm lvchange -r $ra $vg/$lv"
expect_rc 1 "... and nothing else: no pvcreate, mkfs or fstab change" grep -qE "pvcreate|vgcreate|lvcreate|mkfs|fstab-add|fstab-remove" "$OUT"
expect_eq "... in the kernel (sysfs)" "$(ra_kb "/dev/$vg/$lv")" 32768
expect_eq "... and in the VG's metadata (lvs)" "$(lv_ra)" "$ra"
expect_rc 0 "check --strict after the read-ahead's fix" sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" --strict
before=$(writes)
expect_rc 0 "apply again on the open stack" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key
expect_out "... nothing to do" "already matches the plan: nothing to do"
expect_eq "sectors written on md5's members by the second apply" "$(writes)" "$before"
# closed: the LV deactivated, the LUKS2 volume closed; apply opens both and
# makes nothing anew (the filesystem keeps its UUID)
expect_rc 0 "vgchange -an $vg" vgchange -q -an "$vg"
expect_rc 0 "cryptsetup close md5_crypt" cryptsetup close md5_crypt
sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" >"$OUT" 2>"$ERR" || true
sed 's/^/    > /' "$OUT"
expect_out "check --stack on the closed volume says it is closed, a harmless difference" \
	"differs: the LUKS2 volume on '/dev/md5' is closed: its header is the plan's, what is on it"
expect_out "... and that it matched nothing it did not read" "differs harmlessly"
expect_rc 0 "apply --dry-run on the closed stack" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --dry-run
expect_out "... would open the volume" "/dev/mapper/md5_crypt: \(nothing\) -> opened on /dev/md5"
expect_out "... and reads the rest once it is open" "not read while the LUKS2 volume '/dev/mapper/md5_crypt' is closed"
expect_rc 1 "... listing no pvcreate, mkfs or fstab change" grep -qE "pvcreate|mkfs|fstab-add|fstab-remove" "$OUT"
expect_rc 0 "apply on the closed stack opens it" \
	stripeplan apply "${S[@]}" --device /dev/md5 --root "$ROOT" --key-file /tmp/key
sed 's/^/    > /' "$OUT"
udevadm settle
expect_eq "... the same filesystem (UUID)" "$(blkid -s UUID -o value "/dev/$vg/$lv")" "$uuid"
expect_rc 0 "check --strict after the reopening" sp_check "${S[@]}" --device /dev/md5 --root "$ROOT" --strict
expect_eq "... the LV's read_ahead_kb after the reopening" "$(ra_kb "/dev/$vg/$lv")" 32768
expect_rc 3 "apply without --stack on the open stack, --force: refused" \
	stripeplan apply --controller md --fs xfs --mountpoint /data --device /dev/md5 --root "$ROOT" --force
expect_rc 0 "vgchange -an $vg" vgchange -q -an "$vg"
expect_rc 0 "cryptsetup close md5_crypt" cryptsetup close md5_crypt
unset STRIPEPLAN_TEST_FAST_PBKDF
mdadm --stop /dev/md5 >/dev/null

# ---- a controller's LUN: LVM on a GPT partition, LUKS2 on the LV ----------
# RAID5 4 x 64 KiB declared (a LUN exports no topology): the partition the
# plan starts at 3 MiB, pvcreate's --dataalignment, LUKS2 on the LV
lun=$(disk_by_serial LUN0001)
expect_eq "the LUN exports no optimal I/O size" "$(cat "/sys/block/$lun/queue/optimal_io_size")" 0
P=(--controller dell-perc5e --level 5 --disks 4 --chunk 64K --fs xfs --mountpoint /lun)
# the partition, as apply makes it without a stack; its xfs then wiped
expect_rc 0 "apply without --stack: the partition at 3 MiB" \
	stripeplan apply "${P[@]}" --device "/dev/$lun" --root "$ROOT"
udevadm settle
part_start=$(($(cat "/sys/block/$lun/${lun}1/start") * 512))
expect_eq "partition 1 starts at 3 MiB (sysfs)" "$part_start" 3145728
expect_rc 0 "wipefs the partition's xfs" wipefs -aq "/dev/${lun}1"
S2=(--stack lvm,luks --vg vgl --lv lv)
expect_rc 0 "plan --stack lvm,luks on the LUN" stripeplan plan "${P[@]}" "${S2[@]}" --device "/dev/$lun"
cp "$OUT" /tmp/plan-lun
align=$(sed -n 's/.*(pvcreate --dataalignment \([0-9]*k\) --dataalignmentoffset 0).*/\1/p' /tmp/plan-lun)
extent=$(sed -n 's/.*(vgcreate -s \([0-9]*k\)).*/\1/p' /tmp/plan-lun)
read -r extents lv vg < <(sed -n 's/.*(lvcreate -l \([0-9]*\) -n \([^ ]*\) \([^)]*\)).*/\1 \2 \3/p' /tmp/plan-lun)
read -r offset sector < <(sed -n 's/.*luksFormat --type luks2 --offset \([0-9]*\) --sector-size \([0-9]*\) .*/\1 \2/p' /tmp/plan-lun)
luks_name=$(sed -n 's|^  LUKS2 *\/dev\/mapper\/\([^ ]*\) on /dev/.*$|\1|p' /tmp/plan-lun)
into=$(sed -n "s/.*; byte \\([0-9]*\\) of \\/dev\\/$lun\$/\\1/p" /tmp/plan-lun)
echo "plan: align=$align extent=$extent extents=$extents lv=$lv vg=$vg offset=$offset sector=$sector luks=$luks_name into=$into"
expect_rc 0 "the plan names every number" test -n "$align" -a -n "$extent" -a -n "$extents" \
	-a -n "$offset" -a -n "$sector" -a -n "$luks_name" -a -n "$into"
expect_rc 0 "pvcreate --dataalignment $align" \
	pvcreate -q --dataalignment "$align" --dataalignmentoffset 0 "/dev/${lun}1"
expect_rc 0 "vgcreate -s $extent $vg" vgcreate -q -s "$extent" "$vg" "/dev/${lun}1"
ra=$(sed -n 's/^ *read-ahead *[0-9]* KiB (lvcreate -r \([0-9]*\), in 512-byte sectors).*/\1/p' /tmp/plan-lun)
expect_eq "the plan's read-ahead on the LV under LUKS2 = the PERC profile's 4096 KiB" "$ra" 8192
expect_rc 0 "lvcreate -l $extents -n $lv -r $ra $vg" lvcreate -q -y -Wy -Zy -l "$extents" -n "$lv" -r "$ra" "$vg"
expect_rc 0 "luksFormat --offset $offset on the LV" \
	cryptsetup luksFormat -q --type luks2 --offset "$offset" --sector-size "$sector" "${FAST[@]}" \
	--key-file /tmp/key "/dev/$vg/$lv"
expect_rc 0 "cryptsetup open" cryptsetup open --key-file /tmp/key "/dev/$vg/$lv" "$luks_name"
udevadm settle
echo "read_ahead_kb, LVM then LUKS2: $lun $(ra_kb "/dev/$lun"), $vg/$lv $(ra_kb "/dev/$vg/$lv"), $luks_name $(ra_kb "/dev/mapper/$luks_name")"
expect_eq "the LUKS2 mapping on the LV reads ahead as the LV (cryptsetup copies it at open)" \
	"$(ra_kb "/dev/$vg/$lv") $(ra_kb "/dev/mapper/$luks_name")" "4096 4096"
lv_off=$(dmsetup table "$vg-$lv" | awk '$3 == "linear" { print $5 }')
crypt_off=$(dmsetup table "$luks_name" | awk '{ print $NF }')
total=$((part_start + lv_off * 512 + crypt_off * 512))
expect_eq "partition start + pe_start + LUKS2 offset (sysfs, dmsetup table) = the plan's" "$total" "$into"
expect_eq "... a whole stripe of the LUN" "$((total % STRIPE))" 0
expect_rc 1 "check on the LUN finds the PV where the plan's xfs would be" \
	sp_check "${P[@]}" --device "/dev/$lun" --root "$ROOT"
expect_out "check: the planned pe_start is on whole stripes" \
	"holds an LVM physical volume whose first extent starts at 3 MiB, whole stripes: aligned"
expect_rc 0 "cryptsetup close" cryptsetup close "$luks_name"
expect_rc 0 "lvremove" lvremove -q -y "$vg/$lv"
expect_rc 0 "vgremove" vgremove -q "$vg"
expect_rc 0 "pvremove" pvremove -q "/dev/${lun}1"
# pvcreate's own choice on a LUN that exports nothing: 1 MiB, 3 + 1 = 4 MiB
expect_rc 0 "pvcreate with its defaults on the LUN's partition" pvcreate -q "/dev/${lun}1"
expect_eq "pvcreate's own pe_start there" \
	"$(pvs --noheadings --units b --nosuffix -o pe_start "/dev/${lun}1" | tr -d ' ')" 1048576
lun_sb=$(dd if="/dev/$lun" bs=1M count=8 2>/dev/null | sha256sum)
expect_rc 3 "apply without --force over the PV: refused" \
	stripeplan apply "${P[@]}" --device "/dev/$lun" --root "$ROOT"
expect_out "... naming the PV" "LVM2_member.*without --force"
expect_eq "the LUN's first 8 MiB after the refusal" "$(dd if="/dev/$lun" bs=1M count=8 2>/dev/null | sha256sum)" "$lun_sb"
expect_rc 1 "check on the LUN with pvcreate's default" sp_check "${P[@]}" --device "/dev/$lun" --root "$ROOT"
expect_out "check: costly, 21.33 stripes, with the fix" \
	"costly: the LVM physical volume on /dev/${lun}1 starts its extents \\(pe_start\\) 1 MiB in \\(byte 4194304 of the array, 21.33 stripes\\).*pvcreate --dataalignment 3072k --dataalignmentoffset 0"
expect_rc 0 "pvremove" pvremove -q "/dev/${lun}1"

# ---- the LUN: apply --stack lvm alone, then --stack luks alone ---------------
export STRIPEPLAN_TEST_FAST_PBKDF=1
rm -f "$ROOT/etc/fstab"
L=(--stack lvm --vg vgl --lv lv)
expect_rc 0 "plan --stack lvm on the LUN" stripeplan plan "${P[@]}" "${L[@]}" --device "/dev/$lun"
align=$(sed -n 's/.*(pvcreate --dataalignment \([0-9]*k\) --dataalignmentoffset 0).*/\1/p' "$OUT")
extents=$(sed -n 's/.*(lvcreate -l \([0-9]*\) -n .*/\1/p' "$OUT")
expect_rc 0 "apply --stack lvm on the LUN" stripeplan apply "${P[@]}" "${L[@]}" --device "/dev/$lun" --root "$ROOT"
sed 's/^/    > /' "$OUT"
udevadm settle
pe_start=$(pvs --noheadings --units b --nosuffix -o pe_start "/dev/${lun}1" | tr -d ' ')
expect_eq "LVM alone: pe_start (pvs) = --dataalignment $align" "$pe_start" "$((${align%k} * 1024))"
expect_eq "LVM alone: partition start + pe_start on a whole stripe" "$(((part_start + pe_start) % STRIPE))" 0
expect_eq "LVM alone: LV extents (lvs)" "$(lvs --noheadings -o seg_size_pe vgl/lv | tr -d ' ')" "$extents"
expect_eq "LVM alone: xfs sunit swidth (blocks)" "$(xfs_sb /dev/vgl/lv unit) $(xfs_sb /dev/vgl/lv width)" "16 48"
expect_rc 0 "LVM alone: check --strict" sp_check "${P[@]}" "${L[@]}" --device "/dev/$lun" --root "$ROOT" --strict
echo "read_ahead_kb, LVM alone: $lun $(ra_kb "/dev/$lun"), vgl/lv $(ra_kb /dev/vgl/lv)"
expect_eq "LVM alone: the LV's read_ahead_kb = the PERC profile's 4096 on $lun" "$(ra_kb /dev/vgl/lv) $(ra_kb "/dev/$lun")" "4096 4096"
expect_rc 0 "LVM alone: vgchange -an vgl" vgchange -q -an vgl
expect_rc 0 "LVM alone: vgchange -ay vgl" vgchange -q -ay vgl
udevadm settle
expect_eq "LVM alone: ... after a new activation" "$(ra_kb /dev/vgl/lv)" 4096
expect_rc 0 "LVM alone: apply again" stripeplan apply "${P[@]}" "${L[@]}" --device "/dev/$lun" --root "$ROOT"
expect_out "... nothing to do" "already matches the plan: nothing to do"
expect_rc 0 "lvremove" lvremove -q -y vgl/lv
expect_rc 0 "vgremove" vgremove -q vgl
expect_rc 0 "pvremove" pvremove -q "/dev/${lun}1"
rm -f "$ROOT/etc/fstab"
K=(--stack luks --luks-name lunc)
expect_rc 0 "plan --stack luks on the LUN" stripeplan plan "${P[@]}" "${K[@]}" --device "/dev/$lun"
cp "$OUT" /tmp/plan-luks
expect_out "... says the mapping on top is not tuned, and where its read-ahead comes from" \
	"\[read-ahead-not-on-top\] the filesystem reads through the LUKS2 mapping /dev/mapper/lunc, which stripeplan neither tunes nor checks: cryptsetup gives it the read-ahead /dev/${lun}1 has when it opens it, the planned 4096 KiB \(the tuning sets it first, in apply and at boot\); a mapping opened before keeps its own until it is opened again"
read -r offset sector < <(sed -n 's/.*luksFormat --type luks2 --offset \([0-9]*\) --sector-size \([0-9]*\) .*/\1/p' "$OUT")
ra_plan=$(tuning_of /tmp/plan-luks | awk -v p="/sys/block/$lun/queue/read_ahead_kb" '$1 == p { print $2 }')
# the LUN as a fresh one reads ahead (LVM alone above tuned it): apply's
# tuning must set it before the mapping is opened on it
echo 128 >"/sys/block/$lun/queue/read_ahead_kb"
expect_eq "LUKS2 alone: $lun reads ahead 128 KiB before apply" "$(ra_kb "/dev/$lun")" 128
expect_rc 1 "... the plan's read_ahead_kb ($ra_plan) is not 128: what follows proves something" \
	test "${ra_plan:-128}" = 128
expect_rc 0 "apply --stack luks on the LUN" \
	stripeplan apply "${P[@]}" "${K[@]}" --device "/dev/$lun" --root "$ROOT" --key-file /tmp/key
sed 's/^/    > /' "$OUT"
udevadm settle
crypt_off=$(dmsetup table lunc | awk '{ print $NF }')
expect_eq "LUKS2 alone: data offset (dmsetup table) = the plan's" "$crypt_off" "$offset"
echo "read_ahead_kb, LUKS2 alone: $lun $(ra_kb "/dev/$lun"), lunc $(ra_kb /dev/mapper/lunc) (the plan's warning read-ahead-not-on-top)"
expect_eq "LUKS2 alone: after apply's first run the mapping ($(basename "$(readlink -f /dev/mapper/lunc)")) reads ahead the plan's read_ahead_kb" \
	"$(ra_kb /dev/mapper/lunc)" "$ra_plan"
expect_eq "LUKS2 alone: partition start + offset on a whole stripe" "$(((part_start + crypt_off * 512) % STRIPE))" 0
expect_eq "LUKS2 alone: xfs sunit swidth (blocks)" "$(xfs_sb /dev/mapper/lunc unit) $(xfs_sb /dev/mapper/lunc width)" "16 48"
expect_rc 0 "LUKS2 alone: check --strict" sp_check "${P[@]}" "${K[@]}" --device "/dev/$lun" --root "$ROOT" --strict
expect_rc 0 "LUKS2 alone: apply again" \
	stripeplan apply "${P[@]}" "${K[@]}" --device "/dev/$lun" --root "$ROOT" --key-file /tmp/key
expect_out "... nothing to do" "already matches the plan: nothing to do"
# the warning's other half: a mapping opened before the disk was tuned
# keeps its own; an apply re-run on the open stack tunes the disk (the
# tuning differing alone is no reason to refuse an open stack) and
# leaves the mapping as it is
expect_rc 0 "cryptsetup close lunc" cryptsetup close lunc
echo 128 >"/sys/block/$lun/queue/read_ahead_kb"
expect_rc 0 "cryptsetup open lunc on $lun at 128 KiB" cryptsetup open --key-file /tmp/key "/dev/${lun}1" lunc
udevadm settle
expect_rc 0 "LUKS2 alone: apply on the open stack, the disk's read-ahead drifted" \
	stripeplan apply "${P[@]}" "${K[@]}" --device "/dev/$lun" --root "$ROOT" --key-file /tmp/key
sed 's/^/    > /' "$OUT"
expect_out "... sets the disk's knob" "tuning +knob +/sys/block/$lun/queue/read_ahead_kb: 128 -> $ra_plan"
expect_rc 1 "... and nothing else: no luksFormat, mkfs or fstab change" grep -qE "luksFormat|mkfs|fstab-add|fstab-remove" "$OUT"
expect_eq "... $lun reads ahead the plan's, the mapping opened before keeps 128" \
	"$(ra_kb "/dev/$lun") $(ra_kb /dev/mapper/lunc)" "$ra_plan 128"
expect_rc 0 "... check --strict passes: the mapping's read-ahead is not checked (the warning)" \
	sp_check "${P[@]}" "${K[@]}" --device "/dev/$lun" --root "$ROOT" --strict
expect_rc 0 "cryptsetup close lunc" cryptsetup close lunc
vm_finish
