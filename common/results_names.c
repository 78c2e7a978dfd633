/* results_names.c — the names of the closed choices of results_base.h and
 * results_io.h (phases, how a run ended, comparison methods and verdicts). */
#include "results_io.h"

#define RES_NAME(id, name) [RES_PHASE_##id] = name,
static const char *const phase_names[] = { RES_PHASES(RES_NAME) };
#undef RES_NAME

const char *res_phase_name(res_phase_id p)
{
    return (unsigned)p < RES_PHASE_COUNT ? phase_names[p] : "?";
}

#define RES_NAME(id, name) [RES_END_##id] = name,
static const char *const end_names[] = { RES_ENDS(RES_NAME) };
#undef RES_NAME

const char *res_end_name(res_end e)
{
    return (unsigned)e < RES_END_COUNT ? end_names[e] : end_names[RES_END_ERROR];
}

static const struct {
    const char *name;
    bool        tps, paired;
} cmp_methods[] = {
#define RES_CMP(id, name, tps, paired) [RES_CMP_##id] = { name, tps, paired },
    RES_CMP_METHODS(RES_CMP)
#undef RES_CMP
};

const char *res_cmp_method_name(res_cmp_method m)
{
    return (unsigned)m < RES_CMP_METHOD_COUNT ? cmp_methods[m].name : "?";
}

static const char *const cmp_verdicts[] = {
#define RES_CMP_VERDICT_NAME(id, name) [RES_CMP_##id] = name,
    RES_CMP_VERDICTS(RES_CMP_VERDICT_NAME)
#undef RES_CMP_VERDICT_NAME
};

const char *res_cmp_verdict_name(res_cmp_verdict v)
{
    return (unsigned)v < RES_CMP_VERDICT_COUNT ? cmp_verdicts[v] : "?";
}

static const char *const bound_verdicts[] = {
#define RES_BOUND_NAME(id, name) [RES_BOUND_##id] = name,
    RES_BOUND_VERDICTS(RES_BOUND_NAME)
#undef RES_BOUND_NAME
};

const char *res_bound_verdict_name(res_bound_verdict v)
{
    return (unsigned)v < RES_BOUND_VERDICT_COUNT ? bound_verdicts[v] : "?";
}

bool res_cmp_method_is_tps(res_cmp_method m)
{
    return (unsigned)m < RES_CMP_METHOD_COUNT && cmp_methods[m].tps;
}

bool res_cmp_method_is_paired(res_cmp_method m)
{
    return (unsigned)m < RES_CMP_METHOD_COUNT && cmp_methods[m].paired;
}
