-- A Commander in check may not stack onto a tower holding any own piece
-- (blog rules, decision 2).  Its strikes are not restricted.
effect{
  name = "commander-check",
  veto_faces = {"commander"},
  veto_kinds = {"stack"},
  veto_checked = true, -- asked only when the mover was in check
  veto = function(pos, move)
    if move.piece.face ~= "commander" then
      return false
    end
    local me = move.piece.owner
    local own = false
    for t = 1, pos:height(move.to) - 1 do
      own = own or pos:piece(move.to, t).owner == me
    end
    return own
  end,
}
