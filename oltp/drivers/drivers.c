/*
 * drivers.c — the database drivers oltp knows (db.h's db_driver_find). A
 * new driver is one file exporting a const struct db_driver, added here;
 * db.c, which the drivers call, never calls them by name.
 */
#include "drivers/db.h"

#include <stdio.h>
#include <string.h>

extern const struct db_driver db_driver_mysql;
extern const struct db_driver db_driver_pgsql;
extern const struct db_driver db_driver_odbc;

static const struct db_driver *const drivers[] = {
    &db_driver_mysql,
    &db_driver_pgsql,
    &db_driver_odbc,
};

const struct db_driver *db_driver_find(const char *name)
{
    for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
        if (!strcmp(drivers[i]->name, name))
            return drivers[i];
    return NULL;
}

const char *db_driver_names(void)
{
    static char buf[128];
    size_t off = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
        off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
                                i ? ", " : "", drivers[i]->name);
    return buf;
}
