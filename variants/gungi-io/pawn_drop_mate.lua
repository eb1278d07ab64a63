-- pawn_drop_mate: forbid (the site's rules text) makes a Pawn placement
-- that checkmates illegal.  The default, allow, is what gungi.js did; then
-- no hook is registered at all, so the variant keeps its script-free speed.
if rules.pawn_drop_mate == "forbid" then
  effect{
    name = "pawn-drop-mate",
    veto_faces = {"pawn"},
    veto_kinds = {"drop"},
    veto_setup = false,
    veto_check = true,
    veto = function(pos, move)
      return pos:in_check() and not pos:has_legal_move()
    end,
  }
end
