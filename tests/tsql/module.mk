# tests/tsql/: the T-SQL grammar check of the mssql dialect's SQL (check.sh);
# no server, VM, root or network (make check): the parser is installed at
# setup time into a cache outside the tree (tests/tsql/parser.sh install,
# run by .ci/run and images/make-run.sh); without it the check is skipped.
CHECK_TARGETS += tests/tsql/check.sh
