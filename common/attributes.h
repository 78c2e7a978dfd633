/*
 * attributes.h — compiler attributes shared by oltp and drivebench.
 *
 * DB_MUST_CHECK marks a function whose failure the caller must handle
 * (libvirt's G_GNUC_WARN_UNUSED_RESULT on virCommandRun): a call whose
 * result is dropped is a warning, an error under -Werror.
 */
#ifndef DB_ATTRIBUTES_H
#define DB_ATTRIBUTES_H

#define DB_MUST_CHECK __attribute__((warn_unused_result))

#endif
