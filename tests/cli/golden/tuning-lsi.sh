#!/bin/sh
# stripeplan-tune-sda: block-device tuning from stripeplan
#
# Sets the knobs stripeplan planned for /dev/sda
# (lsi-megaraid-475 raid5, 3 disks) and reads each value back.  Generated from the plan:
# change the plan and run stripeplan again rather than editing this file.
#
# Each device is looked up when this runs, by what the udev rule matches
# it by, not by the kernel name it had when the plan was applied (sdc may
# be sdb after a reboot, md3 may come back as md127):
#   sda  the device, by kernel name: the plan knows no identity (WWN, serial, md UUID) for it
#
# usage: stripeplan-tune-sda [KERNEL_NAME]
#   KERNEL_NAME  only tune the device that is now /sys/block/KERNEL_NAME/
#                (a udev rule passes %k, which spells cciss!c0d0 as
#                cciss/c0d0; both work)
#   SYSFS_ROOT   (environment) put in front of every /sys path, so tests
#                can run this against a copy of a fake sysfs tree
#
# A device whose identity no disk or array has now is logged and
# skipped; when more than one has it, that is logged and none of them is
# tuned.  A knob the device does not have is logged and skipped;
# a value the kernel clamped is logged as a warning.  The exit status is
# 1 only when writing a knob that exists failed or an identity was found
# on more than one device.  Running it again changes nothing.
#
# It forks nothing while all goes well: /sys/block is read once, on the
# first device found by identity, into a table of every device's md
# UUID, WWN and serial number, and each planned device is then one
# lookup in it, so the time grows with the devices and the knobs, not
# with their product (a 256-member array among 1,024 disks).
set -u

SYSFS_ROOT=${SYSFS_ROOT:-}
# a udev rule's %k spells cciss!c0d0 as cciss/c0d0
only=${1:-}
while :; do
	case $only in
	*/*) only=${only%%/*}!${only#*/} ;;
	*) break ;;
	esac
done
status=0
dev=
nl='
'
tab='	'
indexed=

log() {
	printf 'stripeplan-tune: %s\n' "$*" >&2
}

# attr DEVICE ATTR...: sets id to the first ATTR of /sys/block/DEVICE/
# that reads non-empty, its first line without surrounding blanks: what
# stripeplan's probe reads the identity from
attr() {
	attr_dev=$1
	shift
	for attr_name; do
		id=
		read -r id 2>/dev/null <"$SYSFS_ROOT/sys/block/$attr_dev/$attr_name" || :
		[ -z "$id" ] || return 0
	done
}

# hex_digits TEXT: sets hex to the first 32 hexadecimal digits of TEXT,
# in lower case
hex_digits() {
	hex=
	hex_rest=$1
	while [ -n "$hex_rest" ] && [ "${#hex}" -lt 32 ]; do
		hex_c=${hex_rest%"${hex_rest#?}"}
		hex_rest=${hex_rest#?}
		case $hex_c in
		[0123456789abcdef]) hex=$hex$hex_c ;;
		A) hex=${hex}a ;;
		B) hex=${hex}b ;;
		C) hex=${hex}c ;;
		D) hex=${hex}d ;;
		E) hex=${hex}e ;;
		F) hex=${hex}f ;;
		esac
	done
}

# reverse_bytes HEX: sets rev to HEX's bytes (pairs of digits) in the
# other order
reverse_bytes() {
	rev=
	rev_rest=$1
	while [ -n "$rev_rest" ]; do
		rev=${rev_rest%"${rev_rest#??}"}$rev
		rev_rest=${rev_rest#??}
	done
}

# md_uuid DEVICE: sets id to the array's UUID as udev's MD_UUID spells it
# (mdadm's "3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04").  md/uuid is what the
# probe reads too; it needs no udev or mdadm and honours SYSFS_ROOT (the
# /dev/disk/by-id/md-uuid-* link would need both).  The kernel prints the
# bytes it keeps as 8-4-4-4-12; those of 0.90 metadata are four
# little-endian words, which mdadm prints as numbers: each group of eight
# hex digits is reversed bytewise.
md_uuid() {
	attr "$1" md/uuid
	[ -n "$id" ] || return 0
	hex_digits "$id"
	id=
	[ "${#hex}" -eq 32 ] || return 0
	attr "$1" md/metadata_version
	md_rest=$hex
	md_uuid=
	while [ -n "$md_rest" ]; do
		md_word=${md_rest%"${md_rest#????????}"}
		md_rest=${md_rest#????????}
		case $id in
		0.*)
			reverse_bytes "$md_word"
			md_word=$rev
			;;
		esac
		md_uuid=$md_uuid${md_uuid:+:}$md_word
	done
	id=$md_uuid
}

# identity KIND DEVICE: sets id to DEVICE's identity of that KIND
identity() {
	id=
	case $1 in
	md) md_uuid "$2" ;;
	wwn) attr "$2" wwid device/wwid ;;
	serial) attr "$2" device/serial serial ;;
	esac
}

# key KIND VALUE: sets key to the name of the variable that lists the
# devices whose KIND is VALUE: VALUE's letters and digits (identities
# that differ only in their other characters share a list, which keeps
# each whole identity beside its device)
key() {
	key=idx_$1_
	key_rest=$2
	while [ -n "$key_rest" ]; do
		key_c=${key_rest%"${key_rest#?}"}
		key_rest=${key_rest#?}
		case $key_c in
		[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789]) key=$key$key_c ;;
		esac
	done
}

# index: one pass over /sys/block, the first time a device is looked up
# by identity: each device's md UUID, WWN and serial number, listed as
# "identity TAB device" lines under key
index() {
	[ -z "$indexed" ] || return 0
	indexed=1
	for index_path in "$SYSFS_ROOT"/sys/block/*; do
		[ -e "$index_path" ] || continue
		index_dev=${index_path##*/}
		for index_kind in md wwn serial; do
			identity "$index_kind" "$index_dev"
			[ -n "$id" ] || continue
			key "$index_kind" "$id"
			eval "index_list=\${$key-}"
			eval "$key=\$index_list\$id\$tab\$index_dev\$nl"
		done
	done
}

# found KIND VALUE WHAT: sets dev to the one device of /sys/block whose
# KIND (md, wwn, serial, or name for the kernel name) is VALUE; WHAT is
# what it is for the log.  False and logged when no device has it, or
# more than one (which sets status to 1: which of them was planned cannot
# be told); false and quiet when the device is not KERNEL_NAME.
found() {
	dev=''
	found_n=0
	found_names=''
	if [ "$1" = name ]; then
		[ ! -e "$SYSFS_ROOT/sys/block/$2" ] || dev=$2 found_n=1 found_names=$2
	else
		index
		key "$1" "$2"
		eval "found_list=\${$key-}"
		while [ -n "$found_list" ]; do
			found_line=${found_list%%"$nl"*}
			found_list=${found_list#*"$nl"}
			# a kernel name holds no tab; an identity might
			[ "${found_line%"$tab"*}" = "$2" ] || continue
			dev=${found_line##*"$tab"}
			found_n=$((found_n + 1))
			found_names="${found_names:+$found_names }$dev"
		done
	fi
	if [ "$found_n" -eq 1 ]; then
		[ -z "$only" ] || [ "$dev" = "$only" ]
		return
	fi
	case $1 in
	md) found_noun="md array" found_id="UUID $2" ;;
	wwn) found_noun=disk found_id="WWN $2" ;;
	serial) found_noun=disk found_id="serial number $2" ;;
	*) found_noun=device found_id="the name $2" ;;
	esac
	if [ "$found_n" -eq 0 ]; then
		[ -n "$only" ] || log "skip $3: no $found_noun with $found_id"
		return 1
	fi
	# more than one: refused, unless KERNEL_NAME is none of them
	if [ -n "$only" ]; then
		case " $found_names " in
		*" $only "*) ;;
		*) return 1 ;;
		esac
	fi
	log "refuse $3: $found_n ${found_noun}s have $found_id ($found_names): none of them tuned"
	status=1
	return 1
}

# current FILE: sets cur to what the knob holds now (its first line); of
# a scheduler list such as "mq-deadline [none]", the bracketed entry is
# the active one.  False when it cannot be read (sysfs files are never
# empty: an empty read of one is a failed one)
current() {
	cur=
	[ -r "$1" ] && [ ! -d "$1" ] || return 1
	IFS= read -r cur <"$1" 2>/dev/null || [ -n "$cur" ] || [ ! -s "$1" ] || return 1
	case $cur in
	*\[*\]*)
		cur=${cur#*\[}
		cur=${cur%%\]*}
		;;
	esac
}

# matches VALUE: cur is VALUE; md reports sync_speed_min as "30000 (local)"
matches() {
	[ "$cur" = "$1" ] || [ "${cur%% *}" = "$1" ]
}

# tune ATTR VALUE: writes VALUE to /sys/block/$dev/ATTR unless the knob
# holds it already, then reads it back
tune() {
	knob=/sys/block/$dev/$1
	file=$SYSFS_ROOT$knob
	if [ ! -e "$file" ]; then
		log "skip $knob: not present"
		return 0
	fi
	if current "$file" && matches "$2"; then
		return 0
	fi
	if ! { printf '%s\n' "$2" >"$file"; } 2>/dev/null &&
		! err=$({ printf '%s\n' "$2" >"$file"; } 2>&1); then
		# written again in a subshell only to hear why: the shell says
		# "script: 61: cannot create FILE: Invalid argument"
		err=${err##*: }
		log "cannot set $knob to '$2': ${err:-the write failed}"
		status=1
		return 0
	fi
	if ! current "$file"; then
		log "warning: cannot read $knob back after writing '$2'"
	elif ! matches "$2"; then
		log "warning: $knob is '$cur' after writing '$2': the kernel clamped it"
	fi
}

if found name 'sda' 'the device'; then
	# seed 004: deadline beat anticipatory (block writes 16.2 -> 16.7 MB/s, seeks 437 -> 641/s); it is mq-deadline since Linux 5.0
	tune 'queue/scheduler' 'mq-deadline'
fi

exit "$status"
