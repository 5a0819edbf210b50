/*
 * static-hwloc.c — linked into `make dist`'s static lockbench only: what
 * libhwloc.a needs around it when there is no shared library to lean on.
 *
 * libudev.  libhwloc.a calls five libudev functions, and Debian ships no
 * libudev.a.  hwloc uses udev for one thing: the vendor, model and serial of
 * the block devices among its I/O objects.  lockbench never asks hwloc for
 * I/O objects (topology.c keeps hwloc's default filters, which drop them), so
 * it loses nothing: here there is no udev context — udev_new() returns NULL,
 * as libudev's does when it cannot start — and hwloc, seeing none, makes no
 * other call.  The types stay opaque, as in libudev's own header.
 *
 * Plugins.  hwloc loads its plugins (hwloc_pci.so, hwloc_xml_libxml.so, ...)
 * with dlopen() from HWLOC_PLUGINS_PATH, by default Debian's
 * /usr/lib/x86_64-linux-gnu/hwloc.  A static binary cannot use them (they
 * need libhwloc.so's symbols; this build's 2.9 ones fail with "undefined
 * symbol"), and dlopen() in a static glibc program pulls the target's shared
 * libc into the process, which another glibc version can break.  So the path
 * is emptied before main(): hwloc then looks nowhere and uses its built-in
 * components (linux, x86, the XML reader without libxml2, synthetic).
 */
#include <stddef.h>
#include <stdlib.h>

struct udev;
struct udev_device;

struct udev *udev_new(void);
struct udev *udev_unref(struct udev *udev);
struct udev_device *udev_device_new_from_subsystem_sysname(struct udev *udev, const char *subsystem,
							   const char *sysname);
const char *udev_device_get_property_value(struct udev_device *device, const char *key);
struct udev_device *udev_device_unref(struct udev_device *device);

struct udev *udev_new(void)
{
	return NULL;
}

struct udev *udev_unref(struct udev *udev)
{
	(void)udev;
	return NULL;
}

struct udev_device *udev_device_new_from_subsystem_sysname(struct udev *udev, const char *subsystem,
							   const char *sysname)
{
	(void)udev;
	(void)subsystem;
	(void)sysname;
	return NULL;
}

const char *udev_device_get_property_value(struct udev_device *device, const char *key)
{
	(void)device;
	(void)key;
	return NULL;
}

struct udev_device *udev_device_unref(struct udev_device *device)
{
	(void)device;
	return NULL;
}

/* Before main(), so before any hwloc_topology_init(); an empty path is one
 * hwloc searches no directory of. */
__attribute__((constructor)) static void no_hwloc_plugins(void)
{
	setenv("HWLOC_PLUGINS_PATH", "", 1);
}
