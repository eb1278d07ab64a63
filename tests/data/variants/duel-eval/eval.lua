-- The agents' score adds this hook's: with variable 1 at 0, a rook of
-- `side` on the c-file is worth 3 more (less than the rook itself, 5);
-- at 1 the hook returns a string (an error), at 2 a huge number for
-- White (kept within the limit that never reads as a won game).
effect{
  name = "centre-rook",
  evaluate = function(pos, side)
    local mode = pos:var(1)
    if mode == 1 then
      return "much"
    elseif mode == 2 then
      return side == 0 and 1e12 or 0
    end
    for _, at in ipairs(pos:find("rook", side)) do
      if at.square:sub(1, 1) == "c" then
        return 3
      end
    end
    return 0
  end,
}
