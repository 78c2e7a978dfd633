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
-- #9 transaction begin: a driver call, no SQL text
-- #10 transaction commit: a driver call, no SQL text

-- prepare
CREATE TABLE sbtest1(
  id INTEGER IDENTITY(1,1) NOT NULL,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) 
INSERT INTO sbtest1 (k, c, pad) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2 '45841801242-31694452018-00659070976-44415677871-47318091952-44639104753-57753722689-12315587449-84552428189-93028113463' '56879532642-53140617864-93155620757-23022149476-32900171089'
  row 1 '01799970501-37214940983-94656115892-90355228058-05358715994-12532448618-87546190282-96589762004-29316076959-73481672269' '17881031598-46045028180-07436856566-38919813342-63927975069'
CREATE INDEX k_1 ON sbtest1(k)

-- before a run
SELECT TOP 1 id FROM sbtest1

-- database size
SELECT CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT) * 8192 FROM sys.database_files WHERE type = 0
SELECT used_log_space_in_bytes FROM sys.dm_db_log_space_usage

-- transaction 1
INSERT INTO sbtest1 (k, c, pad) VALUES ... (rows as INSERT text)

-- transaction 2

-- cleanup
IF OBJECT_ID(N'sbtest1', N'U') IS NOT NULL DROP TABLE sbtest1
