/*
 * argv_scrub.h — no password stays readable in oltp's command line.
 *
 * What `ps` and /proc/PID/cmdline show is the memory argv's strings were
 * passed in, for the whole life of the process. As MySQL's clients do,
 * oltp overwrites a password there with 'x' at start-up (the value of
 * --mysql-password, --pgsql-password, --odbc-password, any --*-password,
 * and the PWD= or Password= attribute of --odbc-connect, in any case),
 * after moving that argument to a copy of its own for the parser. The
 * length stays visible; the password does not. Pass a password in the
 * driver's environment variable (OLTP_MYSQL_PASSWORD, ...) to show none
 * of it at all.
 */
#ifndef OLTP_ARGV_SCRUB_H
#define OLTP_ARGV_SCRUB_H

#include "attributes.h"

/* Scrub argv[1..argc-1] in place; each argument scrubbed becomes a heap
 * copy of what it was (never freed: it lives as long as argv). Returns
 * the number of passwords scrubbed, or -1 when out of memory (an
 * argument left as it was). */
int opts_scrub_argv(int argc, char **argv) DB_MUST_CHECK;

#endif
