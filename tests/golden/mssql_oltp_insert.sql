-- oltp oltp_insert, dialect mssql, options: --tables=1 --table-size=3

-- statement table (prepared on first use)
#0 [1 param] SELECT c FROM sbtest1 WHERE id=?
#1 [2 params] SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?
#2 [2 params] SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?
#3 [2 params] SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c
#4 [2 params] SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c
#5 [1 param] UPDATE sbtest1 SET k=k+1 WHERE id=?
#6 [2 params] UPDATE sbtest1 SET c=? WHERE id=?
#7 [1 param] DELETE FROM sbtest1 WHERE id=?
#8 [4 params] SET IDENTITY_INSERT sbtest1 ON; INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?); SET IDENTITY_INSERT sbtest1 OFF
#9 [0 params] BEGIN TRANSACTION
#10 [0 params] COMMIT TRANSACTION

-- prepare
CREATE TABLE sbtest1(
  id INTEGER IDENTITY(1,1) NOT NULL,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) 
INSERT INTO sbtest1(k, c, pad) VALUES ... (bulk load)
CREATE INDEX k_1 ON sbtest1(k)

-- before a run
SELECT TOP 1 id FROM sbtest1

-- transaction 1
INSERT INTO sbtest1 (k, c, pad) VALUES ... (bulk load)

-- transaction 2

-- cleanup
DROP TABLE IF EXISTS sbtest1
