/*
 * support_presets.h - the shipped presets (no user directory) loaded once
 * per cmocka group, for tests that need the real data.
 */
#ifndef SHARDSCOPE_TEST_SUPPORT_PRESETS_H
#define SHARDSCOPE_TEST_SUPPORT_PRESETS_H

#include "preset.h"

/* Set by ts_presets_setup, freed and reset by ts_presets_teardown. */
extern preset_db *ts_db;

/* cmocka group setup / teardown. */
int ts_presets_setup(void **state);
int ts_presets_teardown(void **state);

#endif
