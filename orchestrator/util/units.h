/*
 * units.h — the durations and sizes that plans and profile templates write
 * ("2h", "30m", "4G", "512MiB"), sizes as messages print them ("1.5 GiB"),
 * and the clock durations are measured with. No dependencies, so both the
 * plan (plan_keys.c) and template.c can use it without depending on each
 * other.
 */
#ifndef ORCH_UNITS_H
#define ORCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "2h", "30m", "10s", "1h30m", "90" -> seconds. 0 ok, -1 bad text
 * (*seconds untouched). */
int orch_parse_duration(const char *s, int *seconds);
/* The other way: 9000 -> "2h30m", 120 -> "2m", 0 -> "0s", into buf;
 * returns buf. */
const char *orch_format_duration(int seconds, char *buf, size_t len);

/* "4G", "512M", "1T", "2GiB", "1024" -> bytes (binary units). 0 ok, -1 bad
 * text or overflow (*bytes untouched). */
int orch_parse_size(const char *s, uint64_t *bytes);
/* The other way, for messages: "1.5 GiB", "300 MiB", "12 KiB", "512 B"
 * into buf; returns buf. */
const char *orch_format_bytes(uint64_t bytes, char *buf, size_t len);

/* Seconds on the monotonic clock (for durations and sample times). */
double orch_mono_now(void);

#endif
