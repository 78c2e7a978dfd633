/*
 * upload.h — the guest image on each drive's host.
 *
 * A VM boots from files on the host that runs it: the base image (backing
 * file of its boot disk), the kernel and initrd (direct kernel boot) and,
 * for profiles with a prebuilt database, the seed. By default they are the
 * files of the plan's image_dir, which must then exist at the same path on
 * every host. A drive with `image_pool` (an existing, active pool on its
 * host) or `image_pool_path` (a folder there; the run starts a transient
 * dir pool "drivebench.images-<8 hex>" on it for the upload and stops it
 * right after, keeping the files, so no pool outlives a run even when its
 * connection drops) gets them uploaded instead, through libvirt
 * (virStorageVolUpload and a stream: no scp, no shell on that host).
 *
 * Each uploaded file FILE is a raw volume FILE in that pool, next to a
 * 65-byte volume FILE.sha256 holding the SHA-256 of the local file in hex
 * and a newline, written only after FILE is complete. When FILE.sha256
 * already holds the local file's checksum and FILE has its size (the
 * physical size: a qcow2's capacity is its virtual size), the
 * upload is skipped; a run that dies mid-upload leaves no checksum, so the
 * next one uploads again. Progress (MB done/total, MB/s) goes to the run's
 * output about once a second.
 *
 * The image volumes are not run objects: nothing removes them, so later
 * runs reuse them (`virsh vol-delete` them to free the space).
 */
#ifndef ORCH_UPLOAD_H
#define ORCH_UPLOAD_H

#include "attributes.h"

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "plan/plan.h"

#define ORCH_IMG_FILES(X) \
    X(BASE, "base.qcow2") X(KERNEL, "vmlinuz") X(INITRD, "initrd.img") X(SEED, "seed.qcow2")
#define ORCH_IMG_ENUM(id, file) ORCH_IMG_##id,
typedef enum { ORCH_IMG_FILES(ORCH_IMG_ENUM) ORCH_IMG_COUNT } orch_img_file;
#undef ORCH_IMG_ENUM

/* "base.qcow2", "vmlinuz", ...: the file in image_dir and the volume in
 * an image pool. */
const char *orch_img_file_name(orch_img_file f);

/* Paths of the image files for each drive of a plan, on that drive's
 * host. */
typedef struct orch_images orch_images;

/* Every drive starts with image_dir's paths. NULL when out of memory.
 * p must outlive the result. */
orch_images *orch_images_new(const orch_plan *p);
void orch_images_free(orch_images *im);     /* accepts NULL */

/* For drive d with an image pool: find that pool on conn (or start it,
 * and stop it again before returning), upload the files the run needs
 * (the seed only when with_seed) unless identical copies are there, and
 * point drive d's paths at the volumes. Drives without one keep
 * image_dir's paths and nothing happens. Progress on out. 0, or -1 with
 * err. */
int orch_images_ensure(orch_images *im, int d, virConnectPtr conn, int with_seed, FILE *out,
                       char *err, size_t errlen) DB_MUST_CHECK;

/* Path of file f for drive d's VMs, on its host. Borrowed. */
const char *orch_images_path(const orch_images *im, int d, orch_img_file f);

/* Domain XML xml with /domain/os/kernel and /domain/os/initrd set to drive
 * d's paths (the template puts image_dir's there); an unchanged copy for a
 * drive without an image pool. New string, or NULL with err. */
char *orch_images_apply(const orch_images *im, int d, const char *xml, char *err,
                        size_t errlen);

/* SHA-256 of the file at path as 64 lowercase hex digits into hex[65].
 * 0, or -1 with err. */
int orch_sha256_file(const char *path, char hex[65], char *err, size_t errlen) DB_MUST_CHECK;

#endif
