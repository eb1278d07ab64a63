-- Pieces on the a-file move as if they stood on tier 2.
effect{
  name = "high-ground",
  tier = function(pos, sq, index, tier)
    if sq:sub(1, 1) == "a" then return 2 end
  end,
}
