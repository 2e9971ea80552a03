# STRIPEPLAN_STATIC_DEPS: a binary for installer images.  libparted,
# libblkid, libext2fs (with libcom_err and libe2p), libuuid and json-c are
# linked from their static archives; what stays dynamic is only what the
# Anaconda and debian-installer images carry themselves (README, "What to
# put in the installer image"): libc, and libdevmapper for libparted's
# device-mapper support (with libudev, libselinux and libpcre2-8 under it).
# Debian ships no static libdevmapper, and both images have it because
# their own partitioners link it.
#
# The pkg-config targets keep their names; only what they link changes, so
# every target that uses them links the same way.
set(STATIC_ARCHIVE_DIRS ${PARTED_LIBRARY_DIRS} ${BLKID_LIBRARY_DIRS} ${EXT2FS_LIBRARY_DIRS}
    ${JSONC_LIBRARY_DIRS} /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE} /usr/lib /lib)

function(static_archive var name)
  find_library(${var} NAMES lib${name}.a PATHS ${STATIC_ARCHIVE_DIRS} NO_DEFAULT_PATH)
  if(NOT ${var})
    message(FATAL_ERROR "STRIPEPLAN_STATIC_DEPS: no lib${name}.a (install lib${name}'s -dev package)")
  endif()
endfunction()

static_archive(SP_A_PARTED parted)
static_archive(SP_A_BLKID blkid)
static_archive(SP_A_UUID uuid)
static_archive(SP_A_EXT2FS ext2fs)
static_archive(SP_A_COM_ERR com_err)
static_archive(SP_A_E2P e2p)
static_archive(SP_A_JSONC json-c)
pkg_check_modules(DEVMAPPER REQUIRED IMPORTED_TARGET devmapper)

# libparted is dlopen()ed by system/parted.c, not linked (system/parted.h
# says why).  Here it is linked whole into the binary, its ped_* functions
# exported, and parted.c opens the program itself (dlopen(NULL)) instead of
# libparted.so.2, so the same code finds the same functions.  Its
# constructor then runs at every start, which an installer does not mind.
target_compile_definitions(libstripeplan-system PRIVATE SP_LIBPARTED_SONAME=NULL)
target_link_libraries(stripeplan PRIVATE
  "-Wl,--whole-archive" "${SP_A_PARTED}" "-Wl,--no-whole-archive"
  "-Wl,--export-dynamic-symbol=ped_*" "${SP_A_BLKID}" "${SP_A_UUID}" PkgConfig::DEVMAPPER)

set_target_properties(PkgConfig::BLKID PROPERTIES INTERFACE_LINK_LIBRARIES "${SP_A_BLKID}")
set_target_properties(PkgConfig::EXT2FS PROPERTIES INTERFACE_LINK_LIBRARIES
  "${SP_A_EXT2FS};${SP_A_E2P};${SP_A_COM_ERR}")
set_target_properties(PkgConfig::JSONC PROPERTIES INTERFACE_LINK_LIBRARIES "${SP_A_JSONC};m")
