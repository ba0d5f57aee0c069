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

/* engine_scenario_defaults with db's model, GPU, intra link and framework
 * (NULL: none) by name; a name db lacks fails the test. */
engine_scenario ts_preset_scenario(const preset_db *db, const char *model, const char *gpu,
                                   const char *link, const char *framework);

#endif
