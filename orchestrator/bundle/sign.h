/*
 * sign.h — who made a bundle: its manifest signed with an SSH key
 * (`drivebench bundle --sign=KEY`) and checked against an allowed-signers
 * file (`drivebench verify --signers=FILE`), by OpenSSH's ssh-keygen -Y
 * (namespace "drivebench"), started through util/command.h.
 *
 * A signed bundle holds RUN-ID/MANIFEST.sha256.sig beside the manifest,
 * whose first line records when it was signed ("# signed-at: TIME", a
 * comment `sha256sum -c` skips), so that the time is signed too. What
 * the checks prove:
 *   - unsigned: the files agree with the manifest and summary.json with
 *     the VMs' raw results ("consistent, unsigned"); anyone can rewrite
 *     all of them together, so nothing says who made the bundle;
 *   - signed, checked against FILE: the manifest, and through its sums
 *     every file, is as the holder of a key FILE allows signed it, at the
 *     recorded time ("signed by PRINCIPAL at TIME"); it says nothing of
 *     whether that holder's drivebench measured honestly.
 */
#ifndef ORCH_SIGN_H
#define ORCH_SIGN_H

#include "attributes.h"

#include <stddef.h>

#define ORCH_SIGNATURE      "MANIFEST.sha256.sig"
#define ORCH_SIGN_NAMESPACE "drivebench"
#define ORCH_SIGNED_AT      "# signed-at: "

/* The manifest text as signed: "# signed-at: NOW\n" then text (NOW in
 * UTC, ISO 8601). New string, or NULL when out of memory. */
char *orch_sign_stamp(const char *text);

/* Sign text with the SSH private key at key (ssh-keygen -Y sign; a key
 * with a passphrase asks for it on the terminal, an agent's key is named
 * by its .pub). The armored signature into *sig (new string). 0, or -1
 * with err. */
int orch_sign_text(const char *key, const char *text, char **sig, char *err, size_t errlen) DB_MUST_CHECK;

/* The origin of the unpacked run folder dir, whose manifest is text:
 * with signers NULL, "consistent, unsigned" or "signed, signer not
 * checked ..."; else the signature (dir/MANIFEST.sha256.sig) checked
 * against the allowed-signers file signers, "signed by PRINCIPAL at
 * TIME". The phrase into origin. 0 when the bundle passes, 1 when it
 * fails (why into origin, one line: unsigned, a key signers does not
 * allow, a signature that does not match the manifest), -1 with err when
 * the check cannot be made (signers unreadable, no ssh-keygen). */
int orch_sign_check(const char *dir, const char *text, const char *signers, char *origin,
                    size_t originlen, char *err, size_t errlen) DB_MUST_CHECK;

#endif
