/* make.c - make/unmake.  A move becomes a sequence of edit primitives
 * (position.c), each recorded in the undo frame, so unmake is exact for
 * engine moves and scripted effects alike. */
#include "make.h"

#include "hooks.h"
#include "position.h"
#include "stackmove.h"

void make_capture_piece(tiers_pos *p, piece_t pc, int capturer)
{
    const tiers_variant *v = p->v;
    int f = v->face_of[pc];
    if ((v->faces[f].flags & FF_ROYAL) && v->royal_capture)
        p->st.winner_flag = (uint8_t)(1 + capturer);
    if (v->captured_to != CAPTURED_HAND || (v->faces[f].flags & FF_NO_HAND))
        return;
    int slot = hand_slot(pc);
    if (v->capture_flips && v->kinds[pc_kind(pc)].face[1] != NO_FACE)
        slot ^= PC_FLIP;
    int owner = pc_owner(pc) == OWNER_SHARED ? OWNER_SHARED : capturer;
    pos_hand_add(p, owner, slot, 1);
}

/* Removes what a capture on sq takes, by the variant's capture rule. */
static void capture_at(tiers_pos *p, int sq, int side)
{
    tower *t = &p->board[sq];
    switch (p->v->capture) {
    case CAP_TOP:
        make_capture_piece(p, pos_pop(p, sq), side);
        break;
    case CAP_ENEMIES:
        for (int i = t->h - 1; i >= 0; i--) {
            int o = pc_owner(t->p[i]);
            if (o != side && o != OWNER_SHARED)
                make_capture_piece(p, pos_remove(p, sq, i), side);
        }
        break;
    case CAP_TOWER:
        while (t->h)
            make_capture_piece(p, pos_pop(p, sq), side);
        break;
    default:
        break;
    }
}

/* Moving a whole stack keeps its order. */
static void move_stack(tiers_pos *p, int from, int to)
{
    tower *t = &p->board[from];
    int h = t->h;
    for (int i = 0; i < h; i++)
        pos_push(p, to, t->p[i]);
    while (t->h)
        pos_pop(p, from);
}

static void move_unit(tiers_pos *p, int from, int to)
{
    if (from == to) /* a null bounce changes nothing on the board */
        return;
    if (p->v->unit == UNIT_STACK)
        move_stack(p, from, to);
    else
        pos_push(p, to, pos_pop(p, from));
}

/* Turns the top piece of sq 90 degrees clockwise. */
static void turn_top(tiers_pos *p, int sq)
{
    int idx = p->board[sq].h - 1;
    piece_t pc = p->board[sq].p[idx];
    pos_replace(p, sq, idx, pc_with_facing(pc, (pc_facing(pc) + 1) & 3));
}

/* Variants where every move ends with a compulsory turn. */
static void turn_moved(tiers_pos *p, int sq)
{
    if (p->v->turn_after_move)
        turn_top(p, sq);
}

/* Converts the tower's pieces at the tiers in m->arg to the mover's side,
 * paying one hand tile of each converted kind. */
static void convert(tiers_pos *p, const tiers_move *m, int side)
{
    for (int i = 0; i < p->board[m->to].h; i++) {
        if (!(m->arg >> i & 1))
            continue;
        piece_t pc = p->board[m->to].p[i];
        pos_hand_add(p, side, hand_slot(pc), -1);
        pc = pc_with_facing(pc_with_owner(pc, side), p->v->forward[side]);
        pos_replace(p, m->to, i, pc);
    }
}

static void end_setup(tiers_pos *p, int side)
{
    p->st.setup_left &= (uint8_t)~(1u << side);
    if (p->v->marker_ends_all & (1u << side))
        p->st.setup_left = 0;
}

static int apply_drop(tiers_pos *p, const tiers_move *m, int side)
{
    piece_t pc = m->piece;
    int owner = pc_owner(pc);
    pos_hand_add(p, owner, hand_slot(pc), -1);
    if (m->flags & TIERS_MF_CONVERT)
        convert(p, m, side);
    pos_push(p, m->to, pc);
    if (m->flags & TIERS_MF_FINAL)
        end_setup(p, side);
    return 1;
}

/* Returns 1 if the move resets the quiet-ply clock. */
static int apply(tiers_pos *p, const tiers_move *m, int side)
{
    switch (m->kind) {
    case TIERS_MV_DROP:
        return apply_drop(p, m, side);
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
        if (m->flags & TIERS_MF_EXIT) {
            while (p->board[m->from].h)
                pos_pop(p, m->from);
            p->st.winner_flag = (uint8_t)(1 + side);
            p->st.win_by_exit = 1;
            return 0;
        }
        if (m->flags & TIERS_MF_CONVERT)
            convert(p, m, side);
        move_unit(p, m->from, m->to);
        turn_moved(p, m->to);
        return 0;
    case TIERS_MV_CAPTURE:
        capture_at(p, m->to, side);
        move_unit(p, m->from, m->to);
        turn_moved(p, m->to);
        return 1;
    case TIERS_MV_DEPLOY:
        stackmove_apply_deploy(p, m, side);
        return 0;
    case TIERS_MV_STRIKE:
        make_capture_piece(p, pos_remove(p, m->from, m->arg - 1), side);
        return 1;
    case TIERS_MV_READY:
        end_setup(p, side);
        return 1;
    case TIERS_MV_ROTATE:
        turn_top(p, m->from);
        return 0;
    default:
        return -1;
    }
}

static int setup_order_done(const tiers_pos *p)
{
    return p->v->nsetup_order && p->st.ply >= p->v->nsetup_order;
}

static int hand_empty(const tiers_pos *p, int side)
{
    for (int s = 1; s < HAND_SLOTS; s = hand_slot_next(p->v, s))
        if (p->hand[side][s])
            return 0;
    return 1;
}

/* Who moves next; ends the setup when no side is left in it. */
static void pass_turn(tiers_pos *p, int side, int was_setup)
{
    const tiers_variant *v = p->v;
    if (!was_setup) {
        p->st.side ^= 1;
        return;
    }
    if (v->nsetup_order) { /* a fixed opening: its list says who is next */
        if (setup_order_done(p))
            p->st.setup_left = 0;
        else
            p->st.side = v->setup_order[p->st.ply][0];
    } else if (!v->setup_ready && hand_empty(p, side)) {
        p->st.setup_left &= (uint8_t)~(1u << side);
    }
    if (!p->st.setup_left)
        p->st.side = v->play_first_side;
    else if (p->st.setup_left & (1u << (side ^ 1)))
        p->st.side = (uint8_t)(side ^ 1);
}

int make_move(tiers_pos *p, const tiers_move *m)
{
    int side = p->st.side, rc = pos_frame_begin(p, m);
    p->fired = 0;
    if (rc < 0)
        return rc;
    int resets;
    if (m->effect && m->effect <= MAX_EFFECTS) /* an effect's own move or variant */
        p->fired |= 1u << (m->effect - 1);
    if (m->kind == TIERS_MV_DROP && m->to != TIERS_NO_SQUARE && p->board[m->to].h &&
        ((p->st.setup_left >> side & 1) ? p->v->setup_onto : p->v->drop_onto) == ONTO_SCRIPT)
        p->fired |= hooks_drop_effects(p); /* they admitted a drop onto a tower */
    if (m->kind == TIERS_MV_EFFECT)
        resets = hooks_apply(p, m);
    else
        resets = apply(p, m, side);
    if (resets >= 0 && (p->v->hooks & HOOK_AFTER)) {
        int r = hooks_after(p, m);
        if (r < 0)
            resets = r;
        else if (r > 0)
            resets = 1;
    }
    if (resets < 0 || p->frame_overflow) {
        p->script_failed = 0; /* reported by this return */
        p->frame = NULL;
        pos_frame_undo(p);
        POS_ASSERT_OK(p, "a failed make");
        return resets < 0 ? resets : TIERS_EFULL;
    }
    p->st.clock = resets ? 0 : (uint16_t)(p->st.clock + 1);
    p->st.ply++;
    pass_turn(p, side, p->frame->st.setup_left != 0);
    if (p->v->repetition)
        p->st.rep_key = pos_rep_key(p->v, &p->st);
    if (side != p->v->play_first_side && p->st.side != side)
        p->st.fullmove++;
    p->frame = NULL;
    POS_ASSERT_OK(p, "make");
    return 0;
}

void unmake_move(tiers_pos *p)
{
    pos_frame_undo(p);
    POS_ASSERT_OK(p, "unmake");
}
