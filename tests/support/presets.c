/*
 * support_presets.c - load the shipped presets once for a test group.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

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

engine_scenario ts_preset_scenario(const preset_db *db, const char *model, const char *gpu,
                                   const char *link, const char *framework)
{
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(db, model);
    s.gpu = preset_find_gpu(db, gpu);
    s.intra = preset_find_link(db, link);
    assert_non_null(s.model);
    assert_non_null(s.gpu);
    assert_non_null(s.intra);
    if (framework) {
        s.framework = preset_find_framework(db, framework);
        assert_non_null(s.framework);
    }
    return s;
}
