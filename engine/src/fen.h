/* fen.h - the board field shared by the gungi.js dialects: ranks 1..N
 * split by '/', files N..1 inside a rank, a digit = empty squares, a letter
 * = one piece (uppercase = first side), "|a:b:c|" = a tower bottom to top.
 * The dialects differ in their letters, given as two functions. */
#ifndef TIERS_FEN_H
#define TIERS_FEN_H

#include "notation.h"

typedef piece_t (*fen_piece_of)(const tiers_variant *v, char c); /* 0 = none */
typedef char (*fen_letter_of)(const tiers_variant *v, int face);  /* lowercase */

/* Reads the board field at *c (leading blanks skipped) into a cleared
 * position; leaves *c after the blank that ends it. */
int fen_parse_board(tiers_pos *p, const char *text, const char **c, fen_piece_of piece_of,
                    tiers_error *err);
void fen_put_board(const tiers_pos *p, sbuf *s, fen_letter_of letter_of);
void fen_put_piece(const tiers_variant *v, sbuf *s, piece_t pc, fen_letter_of letter_of);

/* Helpers both dialects share. */
/* The face's symbol in dialect `name` (`notation: {name: x}`), else its
 * own symbol. */
const char *fen_face_symbol(const tiers_variant *v, int face, const char *name);
/* The tile kind whose front face has letter c (any case; letter_of gives
 * the letters), or 0; and its piece, uppercase = the first side. */
int fen_kind_of_letter(const tiers_variant *v, char c, fen_letter_of letter_of);
piece_t fen_letter_piece(const tiers_variant *v, char c, fen_letter_of letter_of);
/* 0 or 1 for a side's symbol, -1 for any other character. */
int fen_side_of(const tiers_variant *v, char c);
/* The drafting field: the symbols of the sides still in setup, or '-'. */
void fen_put_drafting(const tiers_pos *p, sbuf *s);

#endif
