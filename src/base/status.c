/*
 * status.c -- texts for wm_status and names of spaces and ops.
 */
#include "wm_int.h"

static const char *const status_text[] = {
#define WM_X_TEXT(code, text) text,
    WM_STATUS_LIST(WM_X_TEXT)
#undef WM_X_TEXT
};

const char *wm_status_str(wm_status st)
{
    if ((unsigned)st >= WM_ARRAY_LEN(status_text))
        return "unknown status";
    return status_text[st];
}

const char *wm_space_name(wm_space s)
{
    switch (s) {
    case WM_SPACE_GLOBAL: return "global";
    case WM_SPACE_LOCAL: return "local";
    case WM_SPACE_SHARED: return "shared";
    case WM_SPACE_TEXTURE: return "texture";
    case WM_SPACE_SURFACE: return "surface";
    case WM_NSPACES: break;
    }
    return "?";
}

const char *wm_op_name(wm_op o)
{
    switch (o) {
    case WM_OP_LD: return "ld";
    case WM_OP_ST: return "st";
    case WM_OP_ATOM: return "atom";
    case WM_OP_LDSM: return "ldsm";
    case WM_OP_LDGSTS: return "ldgsts";
    case WM_OP_WGMMA: return "wgmma";
    case WM_OP_TMA: return "tma";
    case WM_NOPS: break;
    }
    return "?";
}
