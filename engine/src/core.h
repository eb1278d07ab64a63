/* core.h - the engine's internal data model: piece codes, the compiled
 * variant (filled by the loader, completed by variant_conclude), and the
 * position with its undo stack.  Shared by the library modules only. */
#ifndef TIERS_CORE_H
#define TIERS_CORE_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include "tiers.h"

/* ------------------------------------------------------------ pieces
 * A piece code is 16 bits; 0 means "no piece".
 *   bits 0-5   tile kind, 1..63 (index into variant.kinds)
 *   bit  6     flipped: the back face is up
 *   bits 7-8   owner: 0 / 1 = the two sides, 2 = shared (belongs to mover)
 *   bits 9-10  facing: 0 N (+rank), 1 E (+file), 2 S, 3 W (absolute)
 * Variants without facings give each piece its owner's forward direction. */
typedef uint16_t piece_t;

enum { PC_KIND_MASK = 0x3f, PC_FLIP = 0x40, PC_OWNER_SHIFT = 7,
       PC_FACING_SHIFT = 9, PC_CODES = 2048 };
enum { OWNER_SHARED = 2, NO_FACE = 0xff, NO_KIND = 0 };
enum { DIR_N, DIR_E, DIR_S, DIR_W };

static inline int pc_kind(piece_t c) { return c & PC_KIND_MASK; }
static inline int pc_flipped(piece_t c) { return (c & PC_FLIP) != 0; }
static inline int pc_owner(piece_t c) { return (c >> PC_OWNER_SHIFT) & 3; }
static inline int pc_facing(piece_t c) { return (c >> PC_FACING_SHIFT) & 3; }
static inline piece_t pc_make(int kind, int flipped, int owner, int facing)
{
    return (piece_t)(kind | (flipped ? PC_FLIP : 0) | (owner << PC_OWNER_SHIFT) |
                     (facing << PC_FACING_SHIFT));
}
static inline piece_t pc_with_owner(piece_t c, int owner)
{
    return (piece_t)((c & ~(3u << PC_OWNER_SHIFT)) | ((unsigned)owner << PC_OWNER_SHIFT));
}
static inline piece_t pc_with_facing(piece_t c, int facing)
{
    return (piece_t)((c & ~(3u << PC_FACING_SHIFT)) | ((unsigned)facing << PC_FACING_SHIFT));
}

/* Squares: rank * 16 + file, both 0-based (tiers_square, tiers.h).  Arrays
 * that only ever hold real squares (undo records, paths being built) keep
 * them in a byte; anything that may hold TIERS_NO_SQUARE is a tiers_square. */
_Static_assert(sizeof(tiers_move) == 20, "tiers_move has no padding (compared with memcmp)");
static inline int sq_file(int sq) { return sq & 15; }
static inline int sq_rank(int sq) { return sq >> 4; }
static inline int sq_make(int file, int rank) { return rank * 16 + file; }

/* ------------------------------------------------------------ variant */

enum {
    MAX_FACES = 64, MAX_KINDS = 64, MAX_LINES = 4096, MAX_VIA = 4,
    MAX_OPTIONS = 48, MAX_OPTION_VALUES = 8, MAX_MODES = 8, MAX_EFFECTS = 32,
    MAX_NAME = 32, MAX_SYM = 16, MAX_SCRIPTS = 16, MAX_DIALECTS = 4
};

/* A line of candidate squares in the piece's frame (+dy = the way it
 * faces).  Candidates: first, first+d, first+2d, ... (`len` of them, 0 =
 * up to the edge).  A line ends at the first occupied candidate unless it
 * is LN_LEAPING.  `via` squares must pass the variant's via test (see
 * via_rule) unless the face is a jumper. */
enum {
    LN_LEAPING = 1,   /* goes on past occupied squares */
    LN_NO_CAPTURE = 2,/* targets may not be captures */
    LN_ONLY_CAPTURE = 4
};
typedef struct line_def {
    int8_t fx, fy, dx, dy;
    uint8_t len;
    uint8_t flags;
    uint8_t nvia;
    int8_t via[MAX_VIA][2];
} line_def;

enum {
    FF_ROYAL = 1u << 0,          /* subject of check / checkmate */
    FF_IMMOBILE = 1u << 1,       /* never moves */
    FF_NO_STACK = 1u << 2,       /* may not move onto a tower (as mover) */
    FF_NO_STACK_ON = 1u << 3,    /* nothing stacks on top of it */
    FF_JUMPER = 1u << 4,         /* ignores via squares */
    FF_COPY_BELOW = 1u << 5,     /* moves like the piece beneath it */
    FF_NOT_COPIED = 1u << 6,     /* a copier above it uses its fallback */
    FF_NO_HAND = 1u << 7,        /* never goes to a hand: removed instead */
    FF_ONE_PER_FILE = 1u << 8,   /* no drop into a file with an own one */
    FF_NO_STRIKE = 1u << 9,      /* gives no immobile strikes, no check */
    FF_TIER1_ONLY = 1u << 10,    /* placed/dropped only on tier 1 */
    FF_DROP_EMPTY = 1u << 11,    /* dropped/placed only on empty squares */
    FF_SETUP_FIRST = 1u << 12,   /* must be the side's first placement */
    FF_CONVERTS = 1u << 13,      /* stacking on a tower may convert the
                                    enemy pieces in it, paying from hand */
    FF_NO_REGION = 1u << 14,     /* regions do not change its tier */
    FF_UNCAPTURABLE = 1u << 15   /* no move ever captures it */
};

/* tiers_variant.expand_role, by face */
enum { EXPAND_ACTOR = 1, EXPAND_TAKEN = 2, EXPAND_STUCK = 4 };

typedef struct face_def {
    char name[MAX_NAME];
    char sym[MAX_SYM];        /* notation letter(s), uppercase ASCII */
    char alt[MAX_DIALECTS][MAX_SYM]; /* symbol in each notation dialect */
    uint32_t flags;
    uint8_t ntiers;           /* tables for tiers 1..ntiers; above: last */
    uint16_t first[TIERS_MAX_TIERS], count[TIERS_MAX_TIERS]; /* into lines */
    uint8_t fallback;         /* face whose table a copier uses, or NO_FACE */
    int16_t value;            /* material value for agents: in hand, tier 1 */
    int16_t tier_value[TIERS_MAX_TIERS]; /* on the board at tier i + 1 */
} face_def;

typedef struct kind_def {
    char name[MAX_NAME];
    uint8_t face[2];          /* front, back (NO_FACE if one-sided) */
    uint8_t count[3];         /* tiles per side and in the shared pool */
    uint8_t royal;            /* derived: either face is royal */
} kind_def;

/* Zones: which squares a side may place on.  Ranks are counted from the
 * side's own back rank, 1-based. */
enum { ZONE_NONE, ZONE_ALL, ZONE_RANKS, ZONE_ADVANCED };
typedef struct zone_def {
    uint8_t type;
    uint8_t lo, hi;           /* ZONE_RANKS: own ranks lo..hi */
} zone_def;

/* What a placement may land on. */
enum { ONTO_EMPTY, ONTO_OWN, ONTO_ANY, ONTO_SCRIPT };

enum { UNIT_TOP, UNIT_STACK };
enum { CAP_NONE, CAP_TOP, CAP_ENEMIES, CAP_TOWER };
enum { CAPTURED_GONE, CAPTURED_HAND };
enum { VIA_EMPTY, VIA_NO_ENEMY, VIA_FREE, VIA_HEIGHT };
enum { LEGAL_STRICT, LEGAL_PSEUDO };
enum { RES_LOSS, RES_DRAW, RES_WIN };
enum { REPKEY_FULL, REPKEY_BOARD, REPKEY_POSITION };
enum { REPFROM_PLAY, REPFROM_START };
enum { REPRES_DRAW, REPRES_REPLAY };
enum { BARE_PLAY, BARE_DRAW, BARE_DRAW_APART };

/* A rules: option the variant declares, with its allowed values. */
typedef struct option_def {
    char key[MAX_NAME];
    char values[MAX_OPTION_VALUES][MAX_NAME];
    uint8_t nvalues;          /* 0 = free integer */
    int32_t value;            /* index into values, or the integer */
    int32_t def;
    char sets[MAX_NAME];      /* engine rule it also sets, "" = none */
    char doc[160];            /* one-line meaning (`doc:`), "" = none */
} option_def;

/* Where a text of the YAML stands, for errors found after loading. */
typedef struct text_at {
    char file[256];
    int line, col;
} text_at;

/* Mode-dependent settings (a mode is carried in the position). */
typedef struct mode_def {
    char name[MAX_NAME];
    uint8_t max_tiers;
    uint8_t royal_may_stack;
    char start[512];          /* start position, tiers notation; "" = empty */
    text_at start_at;
} mode_def;

/* A region projected by every piece of face `face` (at any tier) for its
 * owner: squares at `ofs` (piece frame) and along `rays` from it, clipped
 * to own ranks clip.lo..clip.hi when clip.type is ZONE_RANKS.  Own pieces
 * in a region move with the table `region_bonus` tiers up. */
enum { MAX_REGIONS = 8, MAX_REGION_OFS = 32, MAX_REGION_RAYS = 8 };
typedef struct region_def {
    uint8_t face;
    uint8_t self;
    uint8_t nofs, nrays;
    int8_t ofs[MAX_REGION_OFS][2];
    int8_t rays[MAX_REGION_RAYS][2];
    zone_def clip;
} region_def;
enum { REGION_REPLACE, REGION_UNION };

/* Lua hooks a variant's scripts may define (bit per hook). */
enum {
    HOOK_MOVES = 1u << 0,     /* extra moves for the side to move */
    HOOK_VETO = 1u << 1,      /* reject a move after it is made */
    HOOK_AFTER = 1u << 2,     /* effects after a move (edits) */
    HOOK_TIER = 1u << 3,      /* movement-tier modifier */
    HOOK_DROP = 1u << 4,      /* permission of a drop target */
    HOOK_RESULT = 1u << 5,    /* game result */
    HOOK_APPLY = 1u << 6,     /* performs a scripted (EFFECT) move */
    HOOK_EXPAND = 1u << 7,    /* replaces a generated move by variants */
    HOOK_CHECK = 1u << 8,     /* replaces the engine's "is side in check" */
    HOOK_EVALUATE = 1u << 9   /* adds to the agents' material score */
};

typedef struct tiers_script tiers_script; /* lua/, opaque to the core */

struct tiers_variant {
    char name[MAX_NAME];
    char description[256];
    char path[1024];          /* YAML file */
    uint64_t yaml_hash;       /* FNV-1a over the YAML files read, the file
                                 first, then each one it inherits from */
    char dir[1024];           /* its folder (scripts are relative to it) */
    char hash[17];
    /* what loading noticed without failing (`tiers check` shows them) */
    char warnings[8][320];
    uint8_t nwarnings;

    uint8_t files, ranks, max_tiers;
    char side_name[2][MAX_NAME];
    char side_sym[2];         /* letter of each side in position text */
    uint8_t forward[2];       /* DIR_* each side moves toward */
    uint8_t uses_facing;      /* pieces carry a facing of their own */
    uint8_t has_shared;

    uint8_t nfaces, nkinds;   /* kinds are 1..nkinds-1 (0 = none) */
    face_def faces[MAX_FACES];
    kind_def kinds[MAX_KINDS];
    uint16_t nlines;
    line_def lines[MAX_LINES];

    /* movement and targets */
    uint8_t unit;             /* UNIT_TOP or UNIT_STACK */
    uint8_t bounce;           /* stack lines reflect off the side edges */
    uint8_t deploy;           /* a stack may split over several squares */
    uint8_t null_bounce;      /* a stack may bounce back onto its start */
    uint8_t turn_after_move;  /* a moved piece turns 90 degrees clockwise */
    uint8_t rotate;           /* turning a top piece in place is a move */
    uint8_t stack_own, stack_enemy;
    uint8_t royal_may_stack;  /* a royal piece may move onto a tower */
    uint8_t capture;          /* CAP_* */
    uint8_t capture_and_stack;/* enemy tower: offer stack and capture */
    uint8_t captured_to;      /* CAPTURED_* */
    uint8_t capture_flips;    /* a captured tile enters the hand flipped */
    uint8_t height_block;     /* nothing lands on/passes a tower > tier */
    uint8_t via_rule;         /* VIA_* */
    uint8_t same_face_rule;   /* no two pieces of one face and side stacked */
    uint8_t immobile_strikes; /* pieces strike up/down inside their tower */
    uint8_t over_enemy_face;  /* face whose table a piece uses when the
                                 piece beneath it is the enemy's; NO_FACE */
    uint8_t army_cap;         /* max own pieces on board, 0 = none */
    region_def regions[MAX_REGIONS];
    uint8_t nregions;
    uint8_t region_bonus;     /* tiers added inside an own region */
    uint8_t region_mode;      /* REGION_REPLACE or REGION_UNION */
    uint8_t region_clip;      /* clips apply (else regions are unclipped) */
    uint8_t region_shield;    /* enemy jumpers may not pass own pieces
                                 standing in own regions (via squares) */
    uint8_t shield_all_via;   /* every via square shields, else the first */

    /* drops and setup */
    uint8_t drops;            /* hand pieces may be dropped in play */
    zone_def drop_zone;
    uint8_t drop_onto;        /* ONTO_* */
    uint8_t setup;            /* the game starts with a setup phase */
    zone_def setup_zone;
    uint8_t setup_onto;
    uint8_t setup_ready;      /* sides end their setup by declaring ready */
    uint8_t setup_first_side, play_first_side;
    uint8_t setup_marker;     /* each placement may also end the setup */
    uint8_t nsetup_order;     /* a fixed sequence of placements, by ply: */
    uint8_t setup_order[16][2]; /* side, face */
    uint8_t marker_ends_all;  /* bit per side whose marker ends both */

    /* end of game */
    uint8_t legality;         /* LEGAL_STRICT or LEGAL_PSEUDO */
    uint8_t stalemate;        /* RES_* for the side with no move, not in check */
    uint8_t royal_capture;    /* capturing the royal piece ends the game */
    uint8_t exit_rank;        /* leaving past the far rank wins */
    uint8_t capture_all;      /* taking every enemy piece wins */
    uint8_t repetition;       /* N-fold repetition draws; 0 = off */
    uint8_t repetition_key;   /* REPKEY_* */
    uint8_t repetition_from;  /* REPFROM_*: positions counted from play or start */
    uint8_t repetition_result; /* REPRES_*: a draw, or the game is replayed */
    uint16_t halfmove_limit;  /* draw after this many quiet plies; 0 = off */
    uint16_t max_plies;       /* draw at this ply; 0 = off */
    uint8_t bare_royals;      /* BARE_*: only royal pieces left */

    option_def options[MAX_OPTIONS];
    uint8_t noptions;
    mode_def modes[MAX_MODES];
    uint8_t nmodes;           /* 0 = no modes (mode 0 implicit) */
    char start[1024];         /* start position text, "" = empty board */
    text_at start_at;         /* its place in the YAML (a bad one is found
                                 by the first tiers_pos_new) */

    /* notation dialects (notation.c); face_def.alt[i] is the symbol of
       the face in dialect i */
    char dialects[MAX_DIALECTS][MAX_NAME];
    const char *dialect_names[MAX_DIALECTS + 1];
    uint8_t ndialects;

    /* Lua */
    char scripts[MAX_SCRIPTS][256]; /* file names relative to dir */
    uint8_t nscripts;
    uint32_t hooks;           /* HOOK_* bits defined by some script */
    /* faces on top of a tower that the scripts refuse to let a piece be
       dropped onto, by the first drop_ok effect's drop_ok_faces (set by
       the script module; 0: none refused before asking) */
    uint64_t drop_faces_refused;
    /* by face, what an expand hook may want of it (set by the script
       module; the generator notes where those moves lie, gen_layout):
       EXPAND_ACTOR its plain moves, stacks or captures for the acting
       piece's sake, EXPAND_STUCK only those landing where it may be
       stuck (the only hooks concerned test that, expand_reach {0, 0}),
       EXPAND_TAKEN its capture, whatever captures it */
    uint8_t expand_role[MAX_FACES];
    char effect_name[MAX_EFFECTS][MAX_NAME];
    uint8_t neffects;
    tiers_script *script;     /* NULL if the variant has no scripts */
    const struct hooks_table *hook_fns; /* its hooks (hooks.h), NULL with script */

    /* derived by variant_conclude */
    uint8_t face_of[PC_CODES];      /* piece code -> face shown */
    uint8_t royal_code[PC_CODES];   /* piece code shows a royal face */
    uint8_t region_code[PC_CODES]; /* 1: the piece projects a region (keys regions_of) */
    line_def wlines[4][MAX_LINES];  /* lines turned to each facing */
    uint8_t has_royal;
    /* reach[face][tier-1][facing]: bit (dy+15)*31 + dx+15 set when some
       line of that table can ever land dx,dy away (pruning attack tests) */
    uint64_t reach[MAX_FACES][TIERS_MAX_TIERS][4][16];
    /* reach_any[face][facing]: what the piece could reach at any tier and
       under any table it can borrow (all bits for copiers) */
    uint64_t reach_any[MAX_FACES][4][16];
    /* stuck[face][tier-1][facing]: the squares from which that table
       reaches no square of the board (the rough test of expand_reach);
       stuck_any[face][facing]: their union over tiers, with the
       over-enemy face's tables; stuck_near[face][facing]: the squares
       from which the piece may land on one of those (by reach_any).
       Made by variant_stuck_tables when a script needs them
       (stuck_ready). */
    uint64_t stuck[MAX_FACES][TIERS_MAX_TIERS][4][4];
    uint64_t stuck_any[MAX_FACES][4][4];
    uint64_t stuck_near[MAX_FACES][4][4];
    uint8_t stuck_ready;
    /* For the legality shortcut (movegen.c): the directions of every line
       that can be blocked on its way, and the via squares of single-square
       lines relative to their target.  nrays = 0xff: too many to track. */
    uint8_t nrays, nvia_off;
    int8_t rays[64][2];
    int8_t via_off[128][2];
    uint8_t zone_ok[2][2][TIERS_MAX_SQUARES]; /* [setup?][side][sq] */
};

/* Index of the face called name, or -1 (a variant has a few dozen). */
static inline int face_find(const tiers_variant *v, const char *name)
{
    for (int i = 0; i < v->nfaces; i++)
        if (!strcmp(v->faces[i].name, name))
            return i;
    return -1;
}

/* ------------------------------------------------------------ position */

enum { MAX_UNDO_TOWERS = 12, MAX_UNDO_HANDS = 8, MAX_VARS = 8 };

typedef struct tower {
    uint8_t h;
    piece_t p[TIERS_MAX_TIERS]; /* p[0] bottom .. p[h-1] top */
} tower;

/* Everything restored wholesale on unmake, besides towers and hands. */
typedef struct pos_state {
    uint64_t hash;            /* full key: board, hands, side, phase, vars */
    uint64_t board_hash;      /* board only */
    uint64_t region_hash;     /* the pieces that project regions only */
    uint64_t rep_key;         /* what repetition compares (variant's key),
                                 set after each make and each parse */
    uint8_t side;             /* side to move */
    uint8_t setup_left;       /* bit per side still in setup */
    uint8_t mode;
    uint8_t winner_flag;      /* set by a royal capture or exit: 1+side */
    uint8_t win_by_exit;      /* winner_flag came from an exit */
    uint16_t clock;           /* plies since the last capture/drop/ready */
    uint16_t ply;             /* plies played since the start */
    uint16_t fullmove;        /* rounds: +1 when the second side passes
                                 the turn (move numbers of records) */
    uint16_t onboard[2];      /* pieces each side has on the board */
    uint8_t royal_n[2];       /* royal pieces each side has on the board */
    tiers_square royal_sq[2]; /* where, when royal_n is 1 and it is
                                 known; else TIERS_NO_SQUARE */
    uint16_t towers_of[TIERS_MAX_TIERS]; /* towers of height i + 1 on the board
                                            (script filters by height) */
    int16_t vars[MAX_VARS];   /* script-owned counters, in the hash */
} pos_state;

typedef struct undo_rec {
    pos_state st;
    tiers_move move;
    uint8_t ntowers, nhands;
    uint8_t tsq[MAX_UNDO_TOWERS];
    tower towers[MAX_UNDO_TOWERS];
    uint16_t hcode[MAX_UNDO_HANDS]; /* owner << 8 | hand slot */
    uint8_t hcount[MAX_UNDO_HANDS];
} undo_rec;

/* Hand slot = kind | flipped << 6 (facing is not kept in a hand). */
enum { HAND_SLOTS = 128 };

struct tiers_pos {
    const tiers_variant *v;
    tower board[TIERS_MAX_SQUARES];
    uint8_t hand[3][HAND_SLOTS];
    pos_state st;
    undo_rec *frame;          /* record being written by a make, or NULL */
    int frame_overflow;       /* a move touched more than the frame holds */
    undo_rec *undo;           /* history stack, capacity `cap` */
    int depth, cap;
    uint64_t rng;
    uint32_t fired;           /* effects that fired in the make being done
                                 (tiers_pos_make_unchecked adds them to the
                                 caller's tiers_stats) */
    /* Effects whose veto refused a move of the legal list being generated
       outside any hook (tiers_pos_legal_moves_stats hands them over) */
    uint32_t vetoed;
    int veto_root;            /* depth of that generation, -1 when none runs */
    int script_failed;        /* a hook failed where no error could be
                                 returned; the next generation reports it */
    uint64_t region_key;      /* region_hash the region maps belong to */
    int region_ok;            /* the maps were computed once */
    uint64_t region[2][4];    /* squares in each side's regions */
};

#endif
