-- oltp tpcc, dialect mssql, options: --warehouses=1

-- statement table (prepared on first use)
-- #0 transaction begin: a driver call, no SQL text
-- #1 transaction commit: a driver call, no SQL text
-- #2 transaction rollback: a driver call, no SQL text
#3 [1 param] SELECT w_tax FROM warehouse WHERE w_id = ?
#4 [2 params] SELECT d_tax, d_next_o_id - 1 FROM district WHERE d_w_id = ? AND d_id = ?
#6 [3 params] SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#7 [7 params] INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)
#8 [3 params] INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)
#9 [1 param] SELECT i_price, i_name, i_data FROM item WHERE i_id = ?
#10 [2 params] SELECT s_quantity, s_data, s_dist_01 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#11 [2 params] SELECT s_quantity, s_data, s_dist_02 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#12 [2 params] SELECT s_quantity, s_data, s_dist_03 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#13 [2 params] SELECT s_quantity, s_data, s_dist_04 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#14 [2 params] SELECT s_quantity, s_data, s_dist_05 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#15 [2 params] SELECT s_quantity, s_data, s_dist_06 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#16 [2 params] SELECT s_quantity, s_data, s_dist_07 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#17 [2 params] SELECT s_quantity, s_data, s_dist_08 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#18 [2 params] SELECT s_quantity, s_data, s_dist_09 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#19 [2 params] SELECT s_quantity, s_data, s_dist_10 FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?
#20 [5 params] UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?
#21 [9 params] INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
#22 [2 params] UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?
#23 [1 param] SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = ?
#24 [3 params] UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?
#25 [2 params] SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = ? AND d_id = ?
#26 [3 params] SELECT c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer WITH (UPDLOCK) WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first
#27 [3 params] SELECT c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer WITH (UPDLOCK) WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#28 [3 params] SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#29 [6 params] UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#30 [5 params] UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#31 [8 params] INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
#32 [3 params] SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first
#33 [3 params] SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#34 [3 params] SELECT TOP 1 o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC
#35 [3 params] SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?
#36 [2 params] SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK) WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id
#37 [3 params] DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?
#38 [3 params] SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?
#39 [4 params] UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?
#40 [4 params] UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?
#41 [3 params] SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?
#42 [4 params] UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?
#43 [2 params] SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?
#44 [6 params] SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ? OPTION (LOOP JOIN, MAXDOP 1)
#50 [2 params] UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?

-- prepare
CREATE TABLE warehouse (w_id INTEGER NOT NULL, w_name VARCHAR(10) COLLATE Latin1_General_BIN2, w_street_1 VARCHAR(20) COLLATE Latin1_General_BIN2, w_street_2 VARCHAR(20) COLLATE Latin1_General_BIN2, w_city VARCHAR(20) COLLATE Latin1_General_BIN2, w_state CHAR(2) COLLATE Latin1_General_BIN2, w_zip CHAR(9) COLLATE Latin1_General_BIN2, w_tax DECIMAL(4,4), w_ytd DECIMAL(18,2), PRIMARY KEY (w_id))
CREATE TABLE district (d_id SMALLINT NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10) COLLATE Latin1_General_BIN2, d_street_1 VARCHAR(20) COLLATE Latin1_General_BIN2, d_street_2 VARCHAR(20) COLLATE Latin1_General_BIN2, d_city VARCHAR(20) COLLATE Latin1_General_BIN2, d_state CHAR(2) COLLATE Latin1_General_BIN2, d_zip CHAR(9) COLLATE Latin1_General_BIN2, d_tax DECIMAL(4,4), d_ytd DECIMAL(18,2), d_next_o_id INTEGER, PRIMARY KEY (d_w_id, d_id))
CREATE TABLE customer (c_id INTEGER NOT NULL, c_d_id SMALLINT NOT NULL, c_w_id INTEGER NOT NULL, c_first VARCHAR(16) COLLATE Latin1_General_BIN2, c_middle CHAR(2) COLLATE Latin1_General_BIN2, c_last VARCHAR(16) COLLATE Latin1_General_BIN2, c_street_1 VARCHAR(20) COLLATE Latin1_General_BIN2, c_street_2 VARCHAR(20) COLLATE Latin1_General_BIN2, c_city VARCHAR(20) COLLATE Latin1_General_BIN2, c_state CHAR(2) COLLATE Latin1_General_BIN2, c_zip CHAR(9) COLLATE Latin1_General_BIN2, c_phone CHAR(16) COLLATE Latin1_General_BIN2, c_since DATETIME2, c_credit CHAR(2) COLLATE Latin1_General_BIN2, c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4), c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt INTEGER, c_delivery_cnt INTEGER, c_data VARCHAR(500) COLLATE Latin1_General_BIN2, PRIMARY KEY (c_w_id, c_d_id, c_id))
CREATE TABLE history (h_c_id INTEGER, h_c_d_id SMALLINT, h_c_w_id INTEGER, h_d_id SMALLINT, h_w_id INTEGER, h_date DATETIME2, h_amount DECIMAL(6,2), h_data VARCHAR(24) COLLATE Latin1_General_BIN2)
CREATE TABLE new_order (no_o_id INTEGER NOT NULL, no_d_id SMALLINT NOT NULL, no_w_id INTEGER NOT NULL, PRIMARY KEY (no_w_id, no_d_id, no_o_id))
CREATE TABLE orders (o_id INTEGER NOT NULL, o_d_id SMALLINT NOT NULL, o_w_id INTEGER NOT NULL, o_c_id INTEGER, o_entry_d DATETIME2, o_carrier_id SMALLINT, o_ol_cnt SMALLINT, o_all_local SMALLINT, PRIMARY KEY (o_w_id, o_d_id, o_id))
CREATE TABLE order_line (ol_o_id INTEGER NOT NULL, ol_d_id SMALLINT NOT NULL, ol_w_id INTEGER NOT NULL, ol_number SMALLINT NOT NULL, ol_i_id INTEGER, ol_supply_w_id INTEGER, ol_delivery_d DATETIME2, ol_quantity SMALLINT, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24) COLLATE Latin1_General_BIN2, PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))
CREATE TABLE item (i_id INTEGER NOT NULL, i_im_id INTEGER, i_name VARCHAR(24) COLLATE Latin1_General_BIN2, i_price DECIMAL(5,2), i_data VARCHAR(50) COLLATE Latin1_General_BIN2, PRIMARY KEY (i_id))
CREATE TABLE stock (s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity SMALLINT, s_dist_01 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_02 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_03 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_04 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_05 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_06 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_07 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_08 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_09 CHAR(24) COLLATE Latin1_General_BIN2, s_dist_10 CHAR(24) COLLATE Latin1_General_BIN2, s_ytd INTEGER, s_order_cnt INTEGER, s_remote_cnt INTEGER, s_data VARCHAR(50) COLLATE Latin1_General_BIN2, PRIMARY KEY (s_w_id, s_i_id))
INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 2573 'Vfxv4N9OVOlIG3gU26xEQT' '35.28' 'oo6Ih0je24WtbNNrDfBRszf8oa6y9x'
  row 2 1322 'LHIV244QZXkf4L' '45.10' 'UqFziSwnqu8y48QBWyqjxVDY2xhy'
INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd) VALUES ... (rows as INSERT text)
INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 1 38 'FGVuWlUR8cJ9xw5mLyf6vkRb' 'G7GrQpFaxQoZpUTQeHRbX23T' 'XZer5ntdVmsNK1TEtMTxdHMG' '643kAENWemKbljuG7fS1AvAO' 'kQCYdNdSy5sBysN2oTWiDR9x' 'BOqEKQnWmpxiguB9lu0IZiK0' 'uBjJxVviGSSY1FuWYxhPQREr' '5JUwYQfpi2GZg4ADGl5FlpWi' 'LcqRpTK0xlgVB5rCADyje5Fl' 'DbwOaMGLZzQaA4N8pi3k7YKV' 0 0 0 'dao44LtGMg0OCY0kaZSejVybO5p93Ys2B'
  row 2 1 33 'SANUeTjUDnQuqkqjHBeWT9Nw' 'by5y0R51a3iJRGmnCjuy1y0z' 'ghTz1f3nvusQQmocmst1FLxX' '6yppJxCrJfGwVpnUJysvn2cO' 'V2IxkgdrArw3r8shymoI9Bup' 'QR6cQtuxoZRzPCzSExmCKOGY' 'ACJk7Jj9ETnwVss5GQ90uUjb' 'JbitI2h0ixYGw3XSBQ3TRdTt' 'oRKTpS3TFgru6YapOvn4OBQD' '9V2cbbNNYoXQlyFM4uIrAF5y' 0 0 0 'gtgOlDJPjqcEQO1DDpedfdoR0bFd'
INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id) VALUES ... (rows as INSERT text)
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 1 1 'oYlEreyiE' 'OE' 'BARBARBAR' 'sZH6bLhiPLDG' 'EcHkTCxNzlGvIlp7E' '5jHzii7cyi3i' 'KJ' '011711111' '6213943381333965' <now> 'GC' '50000.00' '0.2661' '-10.00' '10.00' 1 0 '4477Z6z7pSYrV319A5rAPL0fC8tFhpsCwn2l9pB5zQ9Pve7wUJmZDBxSrQi7xR7KXWpJuzEkpWaMliJM4afVEdUVSdFIOKFWhZfyP8Am8VfeeD4jZvpnFGxAnj4FW1waLemd7A3xZEStnvQKR0RZGLwikw7MZZhzrnT7rWBg9iP1q93Qm2w8vF0XNYKDsnVOt3iEycvHk4iN9ojFJ9oeejlqXYUOSzPXlWOCt9ievAxMfK9wLZe4oJffivHa1JlsYxe7XfVU6PUOpqdRvIBj08yM44IUPT5I1mawf7GEjvSDfSl7Aacrlfc5gKPa6vE3ythcnwPD9cuHHzj14z1nMxfkN390FuTQSwawKw7QXP4K2vs3a1RPVKZEC4GKA4sbwl1yYqAwAHv5s5JvmXJapUWKFKktAnsg3Greh1977PPMU2SbkuKZ4CvF8orQcRyEs5B1rabnOeFiyjHsXo4tXJ80ODErfeQFfMT41tsgV0'
  row 2 1 1 'JKeMWitVJ5UYB' 'OE' 'BARBAROUGHT' '16qK8YQ4Cg3gh' 'Sz6am7QWCN8LIU77aZL' 'zPw4nrIgYOU5lYr6F' 'MY' '050211111' '4657537484477789' <now> 'GC' '50000.00' '0.3864' '-10.00' '10.00' 1 0 'HsHtUTKoWz5KOmZ6FHBUGxx8IskJ885nQB6q6weFzN58Ieo6oeF2XCKPYbEzEvlFfdQNALH8SltxQhPjllhRwwTR7Nihu2rcjuXtnZ8KGt29lZHY6a6ylK5xieQZjSQnBZGZDMQtiOr6Id9NdK2tOUxOUfZvnWwer9QMlVPu43OvW8Nsd40BQP0aLWDOK90whX8JsHMsMJevkkgSnvRc63TXZDLKGkUfOGEnCc1MptoOltysMmkJvpF65p1c5T9h67KvVEg2tTvHJgpoUuplcQPzPan80vEohS1YqSN3UgnLmdl7JJuZapYeulrp8iJWCP9AAQViL4jCUUXz72fuBNBYEyjTaHUR6eAddpzPhmShFN93B6ORpNNrobfDIsyDq3QxajgIrn'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 1 1 1 1 <now> '10.00' 'uYHkaiXm2Q97VV5'
  row 2 1 1 1 1 <now> '10.00' 'uJzYyFVN7YjWsou77Q5AQ8'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 1 1 667 <now> 10 12 1
  row 2 1 1 130 <now> 3 10 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 1 1 1 26944 1 <now> 5 '0.00' 'H4Zgrp2mN8yCZ808ZvzK1x6p'
  row 1 1 1 2 11522 1 <now> 5 '0.00' 'MRHvsvJAsi9RelyWwYX8TeYO'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 1 1
  row 2102 1 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 2 1 'RtvDrN8iMq9Fhn' 'OE' 'BARBARBAR' 'VrOg2XQV5JzAy1P' 'vJAtIGjW2AKK7PGH4cJ' 'WbCLxPT6dTQievfH5t1' 'UG' '010411111' '8961309472541980' <now> 'GC' '50000.00' '0.0820' '-10.00' '10.00' 1 0 'I7n6Kf7vRlA0xvU2HqUMzykaqMLkPcCMxEHGUQXtlvvoZpyXBJ6C9DNAy19LDiy9F8EXxibOecOqw1kjkGMnmv1vGoM7TsSkNCkDMGm6zXIcv2CQ0uS2yKU4T3qXzFdRwAQlK2sJzqi4DdNbl12ImYD2M60xtkOywcYGy2fbdcFiiwY7RQPa3MnqwvAO0Q0I6n1BAYODBP71CEOf9Wl5cKj5Ee4osxidLdSw6x55xECaBYJQFZZPktvq57v4gkfUU1WDAHvRoTiCotkz0ne20Rpo5fJAJidjfOV8LK3X9FhhsksHdRiuPAttW5iNv5ZhUX1QaCjLd9HanfKLFK8cIlUxDLLBsQdPKRYPKlaJKZ8KJ9b3dUGSq2Vjwm52elEhc4JwY66vzmnWx2k2CnO9QecBCoGDgrKfkJaA38du9GFch48fxWNKAQrxgMdRQTQO3kN1cU8DwX2UWisODul6iK'
  row 2 2 1 'bhu9otV5C' 'OE' 'BARBAROUGHT' 'Vz22dUENak6459tQUbN' '3A3SVOB3tZqHq8zjW8S9' 'LPwRRZjJBteA' 'XH' '594211111' '7496168879594127' <now> 'GC' '50000.00' '0.2104' '-10.00' '10.00' 1 0 'hK4Vp3ZSdMrzLyshxRG4Q55kysRGPgvPQyh5LtchLRd2eKPSGDxVTBya5YGSoynNebFXEqyqOKAYbs4hcvzYwr8XgsAMcfs8BASY3ZvcErbUba84qhNA3knThQit5TrokU4UmNKAIcUeDIlPc2M32w0kGYwtjj0Wtr3tsGHjECFO81PmXGvtvn0Tt8GyS4RMjpZEx7MoBIbUfPMncraSmmstSwf3bxeK2wDKDVWGJZsdsmK7lS4WPG2RZNnRXqQjrP253C9mY4gwZWPy5hWQHnkAFpOngSm2s4UMQVKhNdID38lpM5NFt21COOdiMJdMlPzzOe3Bn0IfGqLz7N3i8tDqwK1J3ca45JG5Z1L0aqa01w5YcQZ5cJTcMinb5Wgp2BPyx9a621sGAgamJQ6MytHZkSfUKhq3VebvfvOdKmGNePbEIH5RIxuayLrrJdaqlzkRYG0EV6UlcZhCMRX8E6e6OGa67cRteZHOZJmPDjN5dmL'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 2 1 2 1 <now> '10.00' 'lNwdlXPn3XvJWtthLqQ'
  row 2 2 1 2 1 <now> '10.00' 'vsnszfnPLNNV0aI7UCL'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 2 1 2452 <now> 6 12 1
  row 2 2 1 1947 <now> 7 6 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 2 1 1 69489 1 <now> 5 '0.00' 'zzOifJQzok7BZHvJpD6wRmBc'
  row 1 2 1 2 16162 1 <now> 5 '0.00' 'wRC9EdN7OXdANn5r96Kzve7F'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 2 1
  row 2102 2 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 3 1 'QK5TphqGf1AnVMGQ' 'OE' 'BARBARBAR' 'TnLQYiDjzTodhV98tG' 'qiIXEyQ1sDbUc8lzp9' '5OeKaffzWs' 'GM' '893911111' '4248201068013469' <now> 'GC' '50000.00' '0.1872' '-10.00' '10.00' 1 0 '8dJ32dT0K89l6Eeq7v9BJErPBsIzweSGBEB9q99umYFjFSlYUj8Lx7uy6yRIhpAat66TroHoEPlqs8m4GOIDrkEvDSOxgJCB0UXryas0wVBQh6uzOH4NXk8G8ZSvLwnTJuwwdFW4UMSzTA1HBmajjJAQX5WVvG5hDKc1OGDMkDxefLwQE0p0j4YrStLxuWxUgwLBlhTDMLiNLSqA1dZFb2HZ57E5UO9bi1ASeWn34bfvesqc22SPTJHgZgowJL147mO7pNUrueDmlj2URJZDu1SQ8hxen4myFsjDHTOU9q65vhTQZ1HoXWHfMgv1CBreFS5N7X5kbsRPr7muvVeYxu4bLSF2xixxBSJYPCg183oXzUG4hvmQbe8l0J3mEEHtRRy'
  row 2 3 1 'XCsyjEqCif0r' 'OE' 'BARBAROUGHT' 'sRXFKizvnWUVcKf1' 'tHfsmTwwaPiYh90jS' 'iSuOdoDrM16' 'GO' '222211111' '3729150783087896' <now> 'GC' '50000.00' '0.3768' '-10.00' '10.00' 1 0 'U6xC9pS4CvH1Almltn0FvYmIfCJNinOWuidE71nxFy54pyBlILB7ezEdnbLeTWTYSWt7gXlazlQOegh5thkPB0kSjhcRMOxDA6ad4ya9dcJ7bF3uJ2kvXdOLPWk1ZCM0gAhnhL7jDG4QAW3ktlAbnLdrLPsD4YL5ccicn02NwsfXr8RmZb7W7w9EeChwbD4AKyNd52W7YTCaKvJJbMcyuOjO7Za7VTg256UmzGmQYVHHtwOs1pUz2PQ7IrcfeDaUzCKQmttXoAiuqjYuTfb8SJszPSGinujuvexBYr08SxZILoLgx3yn'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 3 1 3 1 <now> '10.00' 'EPV0hFtm3FcnVLrP'
  row 2 3 1 3 1 <now> '10.00' 'YynOW8kCGVfIbsJjb5TEOqo'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 3 1 2618 <now> 6 10 1
  row 2 3 1 1793 <now> 5 8 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 3 1 1 33544 1 <now> 5 '0.00' '4uGSonbvfUDjEk4ghX0vwWMS'
  row 1 3 1 2 46096 1 <now> 5 '0.00' 'ZWUe6B6jPzsHCuBpB1n18xIu'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 3 1
  row 2102 3 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 4 1 'lgLHCcT9EANHz2B' 'OE' 'BARBARBAR' 'nvqez6DXa4jtY5UM' 'NXMGboV4lcmeymkZ' '3X4sjtnOSnzVi96z3iQ' 'HI' '771511111' '1903879679874576' <now> 'GC' '50000.00' '0.0038' '-10.00' '10.00' 1 0 'AHyriO3kYjlyRE88xZgJ25CFTGheqIez6O3TAAiybw6JJT4hWF6Kk367eRelgF8d4LFXCCQvSmwbFLfoJMYlBfCoFo0eqGtV1W5iUh11PWzBwRZY77PvXioi0fABBqvNYXj1zMV1FIW094DzaQrF0ndBKFRpYUXQERXaphPuQUBJhrk00HB4jijSfdjN3cwuLs6o2HCFI4LZ6DgFURrjfIc8qF48XMSJrwIC55G0IE42MjLqCQnK29hB4T95YQ8HWSvvdk7i5poayJoemoJu9O2xdP7XXgahj4RiHEqBGsOUrB21hXNLBtKZGN7AN4S0qY1rXqf41tGAXw34knu9Y4wW27kocNrHqA'
  row 2 4 1 'YNysYK0s' 'OE' 'BARBAROUGHT' 't74Kb7qeJu1l0oB' 'HUqCeMsVfdzB' 'r908pxpjJ3' 'RE' '030411111' '7507587211500401' <now> 'GC' '50000.00' '0.0977' '-10.00' '10.00' 1 0 'Gi9IV3xyrPpcL7wqn3HTZk0ZsJe0U8rybOPXe8lbfH4eoWOmT8mtQOc56afNONnyz4qA2h8yBSlEB2L3OsZbbJKs0ZwRNdz081hfeZTqM64IMrLFD6JR6rqy6HGFtLzcH41JyTlcQUG7wzgzAnQ4WjbiSxmCK30zpZpMF1IyhIMzBpZgCRnKaWH8H0IM3GBdb33cPI6beKd4ksiPpzCiPBryCJEvN3oD7bgNfOjMk46rTYAZ4ixj6NMTexPRrnGoxm5ax02zAHOIsjzN9Uvcs6sTsIgIQyG2KcSBYJyO62Y0DWS745xZhtKokEREnuuz6xh6sJlLXRPtLknprMJrjyAf58WLYtm6V4zsuSZ0OEWBP0'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 4 1 4 1 <now> '10.00' 'Efs7MdrvJJOesFsPTwF'
  row 2 4 1 4 1 <now> '10.00' 'eJtGNzvvtPU4pT'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 4 1 1989 <now> 10 13 1
  row 2 4 1 1801 <now> 1 5 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 4 1 1 85610 1 <now> 5 '0.00' 'AyTOG5KBFDoo02ATjkpBPtJH'
  row 1 4 1 2 65619 1 <now> 5 '0.00' 'QQPNKudA10WLpdeuVzwyAtsD'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 4 1
  row 2102 4 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 5 1 'wJukImj92bwFbI' 'OE' 'BARBARBAR' 'VyQ6wRbaTo' 'XqVAjvivVZycdS' 'nGsu8uXXJzUEM8m' 'XN' '391811111' '7922260496646982' <now> 'GC' '50000.00' '0.3787' '-10.00' '10.00' 1 0 'wtksAvNP0gg9KBBUdQGE8Yxyw56TU8OF8NNmgTiEcEMMwe7uTlkAcP8eftPgY2kpfNGxNaSZAtGyZd0iaPCeRps788N8NLyqmSdlbq6c5PbjJeNCCxt7zJmxeAC6VAEkifNJUTTN8oaAssUVZnJFjJUMFWf6fbqmdxoymJqC473vFkeVT1nnB6oraMo2l391uhYqORgbJyZP2HJ3d8taNhfZOeG44pEBgWXPvnFqJ5dod9g8E8O1tDVae7hNAWggjHUCVYZ3hVVFwcIFr2nRVF41tYWFJaCnrROrKVvyR0lQVGjcBAbNuxkYccdX7rR4sSFpLYdfySGPuYFss5QehfFRU4N05TezjGD9sDvCxPM7qUyu5HZzj8wwiKFUVVs4QIPkcfNd3vtJUYI'
  row 2 5 1 'GFYYAXdztgWX' 'OE' 'BARBAROUGHT' 'PDCBnkWseaKSEQFIT' 'QQWYgNML8ZvE0s2qPP' 'CrGChlbqk0giPuiDNoDf' 'FA' '264811111' '1924080528554146' <now> 'BC' '50000.00' '0.2086' '-10.00' '10.00' 1 0 'TpZ3ye3LkTlLhtVyuOZymz9wMWO7RkdxwTjdkelPovpdy8gqtF1HMYfbHhlBmModkkwzgOlSxry5HvuCDOViyaAMfwjRtnFn8moC0ZPU2A7SOv2etAcvy1REP2RoGqYdN9FLvMeafVrcpUfqdeyxkYIlNQ4BCXwtAirdEvT5azyw8BUc4z98GKcbvTuCBdhUugZNm2gdta6mpozXitox3JYRDmUn0dwFYp3B46XwT17ounIRKmU1RPlXRGX0JvL3aygr4DHLYkOBYC1OoQIoJY8qCt9HRhhMuwS59d5fbzS2ceBWzciRHhLLM7BKizQfsiGbcfdpL83xiZPf9sJvxFinY6DZQaKLaFff05R6enqSipIC0LN2NN7z68oWlVsW1Fgh53c5J'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 5 1 5 1 <now> '10.00' 'qZI9HsnEOHMu69FGiTN'
  row 2 5 1 5 1 <now> '10.00' 'Cr9DOApuPWM4PYkBOU6'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 5 1 510 <now> 8 9 1
  row 2 5 1 542 <now> 1 12 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 5 1 1 83844 1 <now> 5 '0.00' 'RTFPsLWNeeAqPRXbcxPiJjFw'
  row 1 5 1 2 21876 1 <now> 5 '0.00' '2Sq96mM0hSYIl5YY0lLyGSDK'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 5 1
  row 2102 5 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 6 1 'jEwfmntHgRmICqUY' 'OE' 'BARBARBAR' 'NldclQGWtEJHI7a' '7vnsqhpRtsLJXk' 'soD8ylRPpcnE4mwe3L' 'OD' '403211111' '4094924089543416' <now> 'GC' '50000.00' '0.3749' '-10.00' '10.00' 1 0 'uyRhMGg6aJeSoHq19ichB5ZUWumTqptyqXIYU5qHXuOAemRzWIONgmSgNfHHfVjMJPRdPG3I7O5IvyCfD1P4cMwxFjhYvYqqBxJI8HvyImHP1nx9U3SyY4fs406yh0HQHcQyfBR4GsSdoVHmH5fujR1N1uJMWEgS1TvC1c7gwhTtSDrfOh51q1JrEp5TDGCiMh2PIWXl2CJBNpL3histvK4Le8FoasVHGmW7cTa8LtY0IXb9izVWMCuUWNjxBlScpmXgBZ1WCSvRMvOtkmli5TWmz8x87F6ooQliAPTBkrxAzy3i0g7sqtXQIuy5rcNd09NywwMXnVLMSx3VlYxEdWUkuSS8zLRsrjy7tfoIwDUPD6mj9j8BSHuiW0SQViIEAE7HQyJ3xC6h81ykKXPjcOwnymxmhUwCyPeznZ7po55IpzrcdNe2heNHLXIdw5IimRppf8UG9vkd340G'
  row 2 6 1 'm6GGxWvsRY' 'OE' 'BARBAROUGHT' 'd2Nkep1oIT' 'nMyW8JVSRljnxks20X' 'idgNgKq5efRPvGMO' 'BF' '249111111' '5181190003263603' <now> 'GC' '50000.00' '0.0172' '-10.00' '10.00' 1 0 'h904mVvdN9YgetZTWccofyRliCQIhn8ppmy95HxqRafq4tYbLgcaDdCNvtENGNcUUgRKB1Ifyyc8PsiiJM0fTrdSFpbFe72JLZ6LVMxB3KNehxF72IIUuRLothL9kEuXBx5SXbv1nzWyUM9sFGI3q7bARKRR4gqIpXM9UVJp7nmG3c6nKfv6IHy9KjF2qH635cDivgHRoS8YiwV3d2XO1j98Ilw2eZHX5Lbsvw3oK3RICSQXJajCmWPIVYqsJbN6oXEt5PeWTWh4OUxP7npmMAg6vml7dKnkeoudDxMEKHQfPyfgqnnkxbigEyDPmvh997hDmKIGq3YowhDNZX0eVojngLL25n61dZMJ2LzkY7Wz0pr3vwFVC6ahGNqQJSUO6ekp'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 6 1 6 1 <now> '10.00' 'GmWn2o8E6DRn3Hd39JGwTC'
  row 2 6 1 6 1 <now> '10.00' 'uHND4BQdCuAhi'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 6 1 1364 <now> 2 6 1
  row 2 6 1 1089 <now> 3 11 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 6 1 1 83422 1 <now> 5 '0.00' 'lTiVnmsdwJgncbcUg9jrsZkm'
  row 1 6 1 2 62332 1 <now> 5 '0.00' 'AFQkL4MgsM7f5ApWh8lZ6qiN'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 6 1
  row 2102 6 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 7 1 'hbcMBV0mK' 'OE' 'BARBARBAR' 'QLlTBkgCACyGSiFgen' 'xecPWnXgrPf41o0O' 'M45M7uNQueC' 'BZ' '297111111' '6580416930346776' <now> 'GC' '50000.00' '0.3089' '-10.00' '10.00' 1 0 'qfEHI18CB188Vcfv0yA7vxI1K8SNkwvUZbqo4Fbsyk458YNOA5i4aMi97x7deupNPMnKAjcNwfKdRlOxAj76SjHp3UvYWeYKBvnp4V3wLtdeSGkZZni32160Srqm20qcqdgCvCll45sGXHcDu3Dht2NUBRX6jQZChXRFSuSdMmyHMWjUlSuMoYYO1uzzO3puvpQex9xrvnsRiDVljJiv3Tf8oWcVvDnjsmUwdH7Zak8vDSw7MNR2PCJBeagcA0DEoYx8dHjFSMb2nYQrU43gPHanQIyDQWr2uwdrRmN1j1jdWMzAdwlXJnvalKCkMLadSk1'
  row 2 7 1 'd6pvwAy8YZK0h' 'OE' 'BARBAROUGHT' 'hL5hiCwUgNMVKwcGi' 'DxTrjwoKHBTdyCm' 'UQykIEImlyYt5bf7RY0' 'RI' '491511111' '6811187417041989' <now> 'GC' '50000.00' '0.3047' '-10.00' '10.00' 1 0 'R1eb8iypW6OQPFr7Je94uAFb0rqA0x6vJTjJupxU7CbI71apviJ72zIGEAi9Wg8HYAJZlEIhxLlI0AjZJ8QP8Vz6PX9yRtogKfq0sZzczom5iowTNH9qY4Jrgj4YiNmi2IrcTCqNodAdVoTVmXEQrWASa90tE4JF9kTCsJv6PkthrOn55bcuMRTO89w5ofd9o91F0JCxIOYBC8p0RMBI3dbS4yUzjCYKlXAIoU4N7grFfY51leJrgPzhif857LZ8XS3pJC9cU0Zbok71yyBmPk0VfSHf1csW8x4cTi55PwZapi5G1kSCa1xG3FgIPqVxu0YHhEkL2ZbYjP2UV5siIY30BMaW8TCVwcT5MhGC2AeP6JXik1SPKSvwOxjCUC'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 7 1 7 1 <now> '10.00' 'D9d5wkWhRLjQf2F3j'
  row 2 7 1 7 1 <now> '10.00' '51Do49rezPGK'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 7 1 2818 <now> 8 15 1
  row 2 7 1 2056 <now> 5 9 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 7 1 1 33122 1 <now> 5 '0.00' 'uZClkstB3jZWvCSKM6D2Fjd5'
  row 1 7 1 2 10691 1 <now> 5 '0.00' 'qf5YiJoYNXMCOxEsWXzL66nv'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 7 1
  row 2102 7 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 8 1 'HhAuFBDUtUws4b8' 'OE' 'BARBARBAR' 'QCSxemaSn1bYAFYSy' 'vbW2eN8iRodWHoAh0QG1' 'aHVyNs3FHyFqZyO' 'OQ' '762111111' '6460558395946597' <now> 'BC' '50000.00' '0.4690' '-10.00' '10.00' 1 0 'R8PWFbl1b3czCp6OCyeUTQRLlaQVnVEsJFA0PaMlk4MteZKr7Ljy5s9hZLX21WEhe6Ho2Uupng8j15RZz4ZDH8ElYQ7UVDddWCuaLEjQc4xRG05zFTXyyahADKxjNxjZN7c9uCbOn3osvjgpLx7wgUEjuBOUihvDmqk1nCMK0NcJiwRiOqMqRB9VgJcju3XPZTx3hsnVSGZ3L52v3Za72cRW4VQsmkHdjvuxW6wLlMx4SyiHR4NWtVkDCMMoRQ6Nytnoyg4GGNoxU0IxmKRN06gVX9HacW2pwSf6K5OyrtFkvNkndJyaMcoq3lv8Iyf0zWTavadiA0IKzV9ESUDeuS6IfyAw5tJN5czZRLjNbvii7pNTQ75hYOZWq5F2Gh5IPjd7u'
  row 2 8 1 'JVGJI1wh3Vn3gWPh' 'OE' 'BARBAROUGHT' 'X9y6d7HuslenwVzK' 't0rsNYq26Sy' 'cOY73EOzDQijkzaIkNx' 'PY' '150911111' '2103421692412279' <now> 'GC' '50000.00' '0.4774' '-10.00' '10.00' 1 0 'dWzdzJTs8EwW5owF71V3tU8QElvtZ2JV6ghXxvIO8TwFnrH1yNsUbxunvj7Y8IlsGIug3deRCM5UKGXNXt7eefryAxVC3MvrJrQuD8hOMQ7wbE4xXDCHXN7FmfMvYnzjbbCqIWVgMBipJqVgiCIGW6EzYO1vXNQ4TDL3DhrhFylsIrcC5bIXl3UOD947tcNrb60Oj6YgyQp6E9ZKLYoGaoJzxTQyKKJqhmqlYJ74p9AMmgtw9OR44Aqi4zfw5tcoA7wYlCO50zjHoO4waDoIYD4BQK05jdoQrBe2vEn4hqn0X0yzOGp9cS0SrRUdNEufH40E6Ys9AYUzwISe9lGpvAcF'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 8 1 8 1 <now> '10.00' 'bMLIucqwVTZ6gX'
  row 2 8 1 8 1 <now> '10.00' 'NgLRHgIyEwdc'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 8 1 1821 <now> 2 7 1
  row 2 8 1 2259 <now> 7 12 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 8 1 1 30892 1 <now> 5 '0.00' 'sXWHSmfF7Iil0wyZRkYBJGKQ'
  row 1 8 1 2 53862 1 <now> 5 '0.00' 'DnXIQXLdGTnSI3swd4302JyB'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 8 1
  row 2102 8 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 9 1 '2gGFrQHw' 'OE' 'BARBARBAR' 'WKHL3el7Qfb4S' 'A9OuoZtAShvMXL' 'pwaShQsreJ' 'XY' '644211111' '5117170000587729' <now> 'GC' '50000.00' '0.4678' '-10.00' '10.00' 1 0 '0eTJTDBmObiu4ve2VJmRzazBK2QT2CK47DZwC4GcbUXcBPgSaIM0VM8slfDRkSED4xfkHK0iMKCGev0hwrNlhPl9LUrQ1xR5SIPYl1ERdkBsWZh9wu7ardBZxfSfDyIQ5gsa3jKtooBpyCjcCag6FvWMFIYr41pHhx2FCutKCGvjAcesz97X0mjD8ehrlaRbxGiuqAHTJXtMxhkKjuR0eSRLhzClPwadK8chHarttUCab4lMiXK6IOQD0PFylDZodnwpc6oKbpymozhCaYvWFIZIJoIa5MYPdtaHU45sR5I7zfSIoEfHUFgVokd2g2gVpDR7'
  row 2 9 1 'iIMjM64x' 'OE' 'BARBAROUGHT' '9wgiKuo1ib6Pws9Q' 'NLNOnfMFaMr9f1PX4k' 'EaFNOUNS6jqPnV65KL0F' 'MX' '788711111' '3745733994641853' <now> 'GC' '50000.00' '0.4302' '-10.00' '10.00' 1 0 'jyUvtR1iOpI7DFQPIu3YsPiFixJmk3ZWhIY65G3WS4T9B3i2MVflSleZpSdqyGbtcVJ5J73wbiSUp756KmPdwJ03rhOWetUEoYllVfe9EZcl03INr2XyVwVoKZY5CkHRXyXps0pZsEQxj1C4Cg24Ih84KIE7Fhdp9Ek2DQLIH7a7jMLQJwrZWXTyON5RCteT1saXW1SpkNjbEfUWPBwDx3YfsKzNM3IFb1AIPLEds24F327NGiJoaMoHUW61PycE4cw3dcrohrhX2q0jfudfRM5eOj5Ux4kSymTylBgWyRRy8CAGkUjitRW5tP88bqSOpytJCtN2nbjILecRGHGPXIvSJpXdZAHujdjJS7OX3xAvBMwKuxo980bkKDjzrS5retzI'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 9 1 9 1 <now> '10.00' 'HU4UJ6NnAHDy'
  row 2 9 1 9 1 <now> '10.00' 'woohQN2WUvyyTdv'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 9 1 33 <now> 7 8 1
  row 2 9 1 2788 <now> 1 5 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 9 1 1 46187 1 <now> 5 '0.00' 'fTLbm9dhf5guk1QirZBFJvkU'
  row 1 9 1 2 84429 1 <now> 5 '0.00' 'KTz39MHXYq3lX1uWUsUFxonA'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 9 1
  row 2102 9 1
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 10 1 'YsAZ3tikT4tn97' 'OE' 'BARBARBAR' 'hR8pGPzSfAuMtoS' '4jcgD8IflCR9fTFRMmO9' 'TUyclTYOFAngMo' 'NK' '773311111' '8227259129673291' <now> 'GC' '50000.00' '0.0718' '-10.00' '10.00' 1 0 'Ri0QTaJzvNGAUvqfkz67tTRhEdZkPcP9jysolDlRM5NyJKkhYYOZ5Ibv3srAbzXcyzaSKPz9l9wlQJK45Gg4pMLEgx8wEgIr3GaTkZu8mL8Mz1BmV8gkIN7WXBla7awMLRXwA7sZBoXI7X1tQ0tPaQz46i8O01j1LPWZAjtkFAhFAJ7IDgBUeaxjhjpDzm0wn0b4SbpJKGusztbEhh6PuGQMhZuR3H7oOVlyIE3nUXTA81xKdBONWCMnNl9CGAejcdvRjzfW9ZTQL0HkB5CJHfhUi9Nf5Ad5xWLOlq1Lu0MaO0aBdaKhpue9369ZAdMGtJeyQTD0u4zrJgz0rYOLIFIsa6IUURLhkSy27'
  row 2 10 1 'dNJnFa0grTHk' 'OE' 'BARBAROUGHT' '43mBbrhXDtT' 'WRCH2pob0v8' '911Lwe2hzfVG' 'EZ' '416811111' '2052284802388366' <now> 'GC' '50000.00' '0.2773' '-10.00' '10.00' 1 0 'tJbJqlUvSFNSXcUwmCPdeS7TDLrj5VOeVcgHrdZ3ySD080PbKzHicxOfLQg1WG2jtm0TfhobFtZRD5kSwbUaDkedUKvTEsuf4sEQSMMpZr8GuCaz2xbSQTnfuZJQEY4tttXYMY1EuvbgKDVMw8e0dr4qJzUQLTYhcL552duJRi8R3ZFroxPpCnfvv6cWCQvVKtny7sPYjvr6lKyKXom9R7GXAIxMky3RQlKKYinaRqZ4CRgur8piMFB1pK1v9foQqTnePx3kd6QUFbnJIVcMlRiFe5cs2biF3nF35jnRRxZnNvSeHnCEHmt6ZYQtQe3mhVzwR'
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 10 1 10 1 <now> '10.00' '7r1MkPpHwtrZxtSai'
  row 2 10 1 10 1 <now> '10.00' '1phN1eY1KlK6zmjd0HpF4N1'
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 10 1 2087 <now> 3 5 1
  row 2 10 1 717 <now> 6 12 1
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- bulk load, parameter arrays
  row 1 10 1 1 97997 1 <now> 5 '0.00' '9IKuoDwezpxDBFUOJLsVeDlF'
  row 1 10 1 2 23699 1 <now> 5 '0.00' 'i5L3x9axvHNxySgoVwTG3KMl'
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?) -- bulk load, parameter arrays
  row 2101 10 1
  row 2102 10 1
CREATE INDEX idx_customer_name ON customer (c_w_id, c_d_id, c_last, c_first)
CREATE INDEX idx_orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)

-- before a run
SELECT COUNT(*) FROM warehouse WHERE 1 = 0
SELECT COUNT(*) FROM district WHERE 1 = 0
SELECT COUNT(*) FROM customer WHERE 1 = 0
SELECT COUNT(*) FROM history WHERE 1 = 0
SELECT COUNT(*) FROM new_order WHERE 1 = 0
SELECT COUNT(*) FROM orders WHERE 1 = 0
SELECT COUNT(*) FROM order_line WHERE 1 = 0
SELECT COUNT(*) FROM item WHERE 1 = 0
SELECT COUNT(*) FROM stock WHERE 1 = 0
SELECT COUNT(*) FROM warehouse
SELECT COUNT(*), SUM(CASE WHEN c_credit = 'BC' THEN 1 ELSE 0 END) FROM customer WHERE c_w_id = 1 AND c_d_id = 1

-- database size
SELECT CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT) * 8192 FROM sys.database_files WHERE type = 0
SELECT used_log_space_in_bytes FROM sys.dm_db_log_space_usage

-- the server's count (NOPM)
SELECT SUM(CAST(d_next_o_id AS BIGINT)) FROM district

-- check
SELECT COUNT(*) FROM district
SELECT COUNT(*) FROM warehouse w WHERE w.w_ytd <> (SELECT SUM(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id)
SELECT COUNT(*) FROM district d WHERE d.d_next_o_id - 1 <> (SELECT MAX(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) OR d.d_next_o_id - 1 <> (SELECT MAX(n.no_o_id) FROM new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id)
SELECT COUNT(*) FROM (SELECT no_w_id, no_d_id, MAX(no_o_id) - MIN(no_o_id) + 1 AS span, COUNT(*) AS n FROM new_order GROUP BY no_w_id, no_d_id) x WHERE x.span <> x.n
SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, SUM(CAST(o_ol_cnt AS BIGINT)) AS s FROM orders GROUP BY o_w_id, o_d_id) a LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n FROM order_line GROUP BY ol_w_id, ol_d_id) b ON a.o_w_id = b.ol_w_id AND a.o_d_id = b.ol_d_id WHERE b.n IS NULL OR a.s <> b.n

-- transaction 1
-- driver: begin (autocommit off)
EXECUTE #22 '2812.32' 1
EXECUTE #23 1
EXECUTE #24 '2812.32' 1 7
EXECUTE #25 1 7
EXECUTE #27 1 7 1787
EXECUTE #30 '2812.32' '2812.32' 1 7 1
EXECUTE #31 1 7 1 7 1 <now> '2812.32' '1    1'
-- driver: commit (SQLEndTran)

-- transaction 2
-- driver: begin (autocommit off)
EXECUTE #22 '929.07' 1
EXECUTE #23 1
EXECUTE #24 '929.07' 1 7
EXECUTE #25 1 7
EXECUTE #27 1 7 135
EXECUTE #30 '929.07' '929.07' 1 7 1
EXECUTE #31 1 7 1 7 1 <now> '929.07' '1    1'
-- driver: commit (SQLEndTran)

-- transaction 3
-- driver: begin (autocommit off)
EXECUTE #3 1
EXECUTE #50 1 4
EXECUTE #4 1 4
EXECUTE #6 1 4 130
EXECUTE #7 1 4 1 130 <now> 5 1
EXECUTE #8 1 4 1
EXECUTE #9 42794
EXECUTE #13 42794 1
EXECUTE #20 82 10 0 42794 1
EXECUTE #21 1 4 1 1 42794 1 10 '10.00' '1'
EXECUTE #9 89934
EXECUTE #13 89934 1
EXECUTE #20 89 3 0 89934 1
EXECUTE #21 1 4 1 2 89934 1 3 '3.00' '1'
EXECUTE #9 63562
EXECUTE #13 63562 1
EXECUTE #20 87 5 0 63562 1
EXECUTE #21 1 4 1 3 63562 1 5 '5.00' '1'
EXECUTE #9 52010
EXECUTE #13 52010 1
EXECUTE #20 83 9 0 52010 1
EXECUTE #21 1 4 1 4 52010 1 9 '9.00' '1'
EXECUTE #9 91374
EXECUTE #13 91374 1
EXECUTE #20 86 6 0 91374 1
EXECUTE #21 1 4 1 5 91374 1 6 '6.00' '1'
-- driver: commit (SQLEndTran)

-- cleanup
IF OBJECT_ID(N'tpcc_neword', N'P') IS NOT NULL DROP PROCEDURE tpcc_neword
IF OBJECT_ID(N'tpcc_payment', N'P') IS NOT NULL DROP PROCEDURE tpcc_payment
IF OBJECT_ID(N'tpcc_ostat', N'P') IS NOT NULL DROP PROCEDURE tpcc_ostat
IF OBJECT_ID(N'tpcc_delivery', N'P') IS NOT NULL DROP PROCEDURE tpcc_delivery
IF OBJECT_ID(N'tpcc_slev', N'P') IS NOT NULL DROP PROCEDURE tpcc_slev
IF OBJECT_ID(N'stock', N'U') IS NOT NULL DROP TABLE stock
IF OBJECT_ID(N'item', N'U') IS NOT NULL DROP TABLE item
IF OBJECT_ID(N'order_line', N'U') IS NOT NULL DROP TABLE order_line
IF OBJECT_ID(N'orders', N'U') IS NOT NULL DROP TABLE orders
IF OBJECT_ID(N'new_order', N'U') IS NOT NULL DROP TABLE new_order
IF OBJECT_ID(N'history', N'U') IS NOT NULL DROP TABLE history
IF OBJECT_ID(N'customer', N'U') IS NOT NULL DROP TABLE customer
IF OBJECT_ID(N'district', N'U') IS NOT NULL DROP TABLE district
IF OBJECT_ID(N'warehouse', N'U') IS NOT NULL DROP TABLE warehouse
