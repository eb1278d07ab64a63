-- Only pawns may be dropped onto a tower, and only onto a single piece.
effect{
  name = "towers-only",
  drop_ok = function(pos, piece, sq)
    return piece.face == "pawn" and pos:height(sq) == 1
  end,
}
