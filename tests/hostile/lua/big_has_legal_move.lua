-- Hostile: pos:has_legal_move in an endless loop on the largest board,
-- where the veto it runs for each move refuses every move: each call
-- makes and unmakes every move of the position (1,300), each try counted
-- as a pass over the board plus a nested hook call.
local busy = false
effect{
  name = "big-has-legal-move",
  veto = function(pos, move)
    if busy then return true end
    busy = true
    while true do pos:has_legal_move() end
  end,
}
