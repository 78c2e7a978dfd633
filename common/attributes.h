/*
 * attributes.h — compiler attributes and the error buffer's size, shared
 * by oltp and drivebench.
 *
 * DB_MUST_CHECK marks a function whose failure the caller must handle
 * (libvirt's G_GNUC_WARN_UNUSED_RESULT on virCommandRun): a call whose
 * result is dropped is a warning, an error under -Werror.
 */
#ifndef DB_ATTRIBUTES_H
#define DB_ATTRIBUTES_H

#define DB_MUST_CHECK __attribute__((warn_unused_result))

/* The one size of an error message buffer: every `char *err, size_t
 * errlen` pair gets DB_ERR_LEN bytes, and a message that names its cause
 * is written once, by the layer that knows it (callers add a prefix only
 * where it says something new). */
#define DB_ERR_LEN 1024

#endif
