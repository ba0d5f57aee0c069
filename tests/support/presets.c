/*
 * support_presets.c - load the shipped presets once for a test group.
 */
#include <stddef.h>

#include "support_presets.h"

preset_db *ts_db;

int ts_presets_setup(void **state)
{
    (void)state;
    engine_error err = {{0}};
    return preset_db_load("", &ts_db, &err);
}

int ts_presets_teardown(void **state)
{
    (void)state;
    preset_db_free(ts_db);
    ts_db = NULL;
    return 0;
}
