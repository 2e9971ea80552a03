#!/bin/sh
# The core does no I/O (docs/ARCHITECTURE.md): it takes text and gives
# text, and the system library and the CLI open, read, list and stat
# files, run programs and read the environment.  The build keeps the core
# from including a system header; this keeps it from calling what those
# headers declare: no object of the core's libraries may leave one of
# these functions undefined (nm -u), whatever header it came through.
# Usage: core-io.sh NM LIBRARY...
set -eu

nm=$1
shift

forbidden='
open open64 openat openat64 __open_2 __open64_2 __openat_2 creat creat64
read pread pread64 readv preadv preadv2 __read_chk __pread_chk __pread64_chk
fopen fopen64 freopen freopen64 fdopen
opendir fdopendir readdir readdir64 readdir_r scandir scandir64 scandirat
stat stat64 lstat lstat64 fstat fstat64 fstatat fstatat64 statx
__xstat __xstat64 __lxstat __lxstat64 __fxstat __fxstat64 __fxstatat __fxstatat64
access faccessat euidaccess eaccess readlink readlinkat realpath canonicalize_file_name
getdents64 mmap mmap64 ioctl flock fcntl fcntl64 lockf
write pwrite pwrite64 writev unlink unlinkat rename renameat renameat2 mkdir mkdirat
rmdir fsync fdatasync ftruncate ftruncate64 truncate chmod fchmod fchmodat chown fchown
mkstemp mkostemp tmpfile mount umount umount2
fork vfork clone execve execv execvp execvpe execl execlp posix_spawn posix_spawnp
system popen dlopen getenv secure_getenv uname sysconf
'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086 # split into one name a line on purpose
printf '%s\n' $forbidden | sort -u >"$work/forbidden"

status=0
for lib in "$@"; do
	# "file.c.o:" headers, then "                 U symbol" lines
	"$nm" -u "$lib" >"$work/nm"
	awk '/:$/ { object = $0; sub(/:$/, "", object); next }
	     $1 == "U" { sub(/@.*/, "", $2); print object, $2 }' "$work/nm" >"$work/undefined"
	# a library whose objects leave nothing undefined was not read right
	if ! grep -q ' strlen$' "$work/undefined"; then
		echo "core-io: nm -u $lib lists no strlen: not the library meant" >&2
		status=1
		continue
	fi
	awk 'NR == FNR { bad[$1] = 1; next } $2 in bad' "$work/forbidden" "$work/undefined" \
		>"$work/found"
	if [ -s "$work/found" ]; then
		echo "core-io: $(basename "$lib") calls what the system library does:" >&2
		sed 's/^/  /' "$work/found" >&2
		status=1
	else
		echo "$(basename "$lib"): $(awk '{ print $2 }' "$work/undefined" | sort -u | wc -l) undefined symbols, none of the $(wc -l <"$work/forbidden") forbidden"
	fi
done
exit $status
