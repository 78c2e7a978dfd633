/* version.h — drivebench's version: oltp reports it, the orchestrator records it
 * in the run's protocol fingerprint (results/SCHEMA.md). */
#define DRIVEBENCH_VERSION "0.1.0"
