-- A check hook with check_pure: the board, hands, side and variables
-- decide, not the ply or the clock, so the engine asks once for each.
-- A side is in check when an enemy Rook stands on its King's file.
effect{
  name = "rook-file",
  check_pure = true,
  check = function(pos, side)
    local king
    for _, at in ipairs(pos:find("king", side)) do king = at.square end
    if not king then return false end
    for _, at in ipairs(pos:find("rook", 1 - side)) do
      if at.square:sub(1, 1) == king:sub(1, 1) then return true end
    end
    return false
  end,
}
