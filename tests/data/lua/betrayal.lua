-- Betrayal: a piece that stacks onto an enemy piece turns it over and
-- takes it into its own army.
effect{
  name = "betrayal",
  after = function(pos, move)
    if move.kind ~= "stack" then return false end
    local h = pos:height(move.to)
    local below, mover = pos:piece(move.to, h - 1), pos:top(move.to)
    if below.owner == mover.owner then return false end
    if below.kind == "pawn" then pos:flip(move.to, h - 1) end
    pos:set_owner(move.to, h - 1, mover.owner)
    return true
  end,
}
