/*
 * out_ci.h -- the parts the CI documents share (out_sarif.c): the rules,
 * an instruction's source location resolved against the PTX's directory,
 * and the SARIF log's frame, results and locations.
 */
#ifndef WM_OUT_CI_H
#define WM_OUT_CI_H

#include "out_int.h"

/* The rules of the SARIF driver, in ruleIndex order. */
typedef enum {
    WMI_RULE_SECTORS,     /* lint: global/local excess sectors */
    WMI_RULE_BANKS,       /* lint: shared excess wavefronts */
    WMI_RULE_RAW,         /* the hazard kinds, in wm_hazard_kind order */
    WMI_RULE_WAR,
    WMI_RULE_WAW,
    WMI_RULE_UNINIT,
    WMI_RULE_SCHEDULES,   /* outputs differ between schedules */
    WMI_RULE_FAULT,       /* fault, step budget, unsupported instruction */
    WMI_RULE_COUNT
} wmi_ci_rule;

const char *wmi_ci_rule_id(wmi_ci_rule r);   /* "WM1001" */
const char *wmi_ci_rule_name(wmi_ci_rule r); /* "excess-sectors" */

/* Where an instruction came from, for a CI document. */
typedef struct wmi_ci_loc {
    char path[2048];   /* the source file, found as the report finds it
                          (beside the PTX, its parent directory), "" if
                          the instruction has no source line or the file
                          cannot be read (line is then 0) */
    uint32_t line, col; /* its source line and column (col 1 if unknown) */
    uint32_t ptx_line;
    const char *text;  /* the PTX instruction */
} wmi_ci_loc;

/* Fill *out for instruction insn; 0 for an index out of range. */
int wmi_ci_where(const wm_ptx_module *m, size_t insn, const char *ptx_path,
                 wmi_ci_loc *out);

/* A .loc file name as a path from the working directory: as written,
   else beside ptx_path, else its base name in ptx_path's parent
   directory, the first that can be read (else as written); "." and ".."
   segments folded. */
void wmi_ci_source_path(const char *file, const char *ptx_path, char *buf,
                        size_t n);

/* path as a URI reference: relative paths stay relative, absolute ones
   become file:// URIs; bytes outside [A-Za-z0-9/-._~] percent-encoded. */
void wmi_ci_uri(const char *path, char *buf, size_t n);

/* The log up to its "results" array (open). */
void wmi_sarif_begin(wmi_out *o, FILE *f, const wm_ci_opts *ci);
/* Open a result object (ruleId, ruleIndex, level, message); the caller
   adds "locations" and the rest and closes it with wmi_out_end. */
void wmi_sarif_result(wmi_out *o, wmi_ci_rule rule, const char *level,
                      const char *text);
/* One location object in an open "locations" array. */
void wmi_sarif_location(wmi_out *o, const wmi_ci_loc *l, const char *ptx_path);
/* One location object with an id and a message, in an open
   "relatedLocations" array. */
void wmi_sarif_related(wmi_out *o, unsigned id, const wmi_ci_loc *l,
                       const char *ptx_path, const char *what);
/* Close the results, the run and the log; the writer's status. */
wm_status wmi_sarif_end(wmi_out *o);

#endif /* WM_OUT_CI_H */
