-- Narrowed vetoes: effect N (variable 1 = N) refuses every move it is
-- asked about, so the legal list shows which moves reach each hook.
local function refuse(n)
  return function(pos, move)
    return pos:var(1) == n
  end
end
effect{name = "faces", veto_faces = {"rook"}, veto = refuse(1)}
effect{name = "kinds", veto_kinds = {"capture"}, veto = refuse(2)}
effect{name = "taken", veto_taken = {"pawn"}, veto = refuse(3)}
effect{name = "ranks", veto_ranks = {4, 5}, veto = refuse(4)}
effect{name = "heights", veto_heights = {2}, veto = refuse(5)}
effect{name = "check", veto_check = true, veto = refuse(6)}
effect{name = "checked", veto_checked = true, veto = refuse(7)}
effect{name = "both", veto_faces = {"king"}, veto_taken = {"rook"}, veto = refuse(8)}
effect{name = "file", veto_file_faces = {"pawn"}, veto = refuse(9)}
effect{name = "doubled", veto_doubled = true, veto = refuse(10)}
effect{name = "never", veto_kinds = {}, veto = refuse(11)}
