/*
 * csv_io_head.h — summary.csv's drive I/O columns as the tests expect them,
 * written out once by hand (the writer builds them from the X-macros in
 * common/results_io.h): test_results.c and test_aggregate.c compare the
 * CSV the code writes with this text.
 */
#ifndef DB_TEST_CSV_IO_HEAD_H
#define DB_TEST_CSV_IO_HEAD_H
#define CSV_IO_HEAD ",db_rd_iops,db_rd_mbps,db_rd_lat_ms,db_wr_iops,db_wr_mbps,db_wr_lat_ms,db_fl_iops,db_fl_lat_ms,host_rd_iops,host_rd_mbps,host_rd_await_ms,host_wr_iops,host_wr_mbps,host_wr_await_ms,host_dc_iops,host_dc_mbps,host_dc_await_ms,host_fl_iops,host_fl_await_ms,host_await_ms,host_queue_depth,host_util_pct,host_rq_kib,flush_ratio,guest_rd_iops,guest_rd_mbps,guest_rd_await_ms,guest_wr_iops,guest_wr_mbps,guest_wr_await_ms,guest_dc_iops,guest_dc_mbps,guest_dc_await_ms,guest_fl_iops,guest_fl_await_ms,guest_await_ms,guest_queue_depth,guest_util_pct,guest_rq_kib,txn_rd_kib,txn_wr_kib,txn_flushes,txn_dev_rd_kib,txn_dev_wr_kib,txn_dev_flushes,txn_dev_busy_ms,txn_write_amp,dev_lat_p50_ms,dev_lat_p99_ms,dev_lat_p99.99_ms,tail_r"
#endif
