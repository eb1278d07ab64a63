-- shared_capture.lua: captures of shared pieces.  The engine sees a shared
-- piece as the mover's own, so it never offers to take one; this effect
-- adds those captures: the mover's King, or a shared piece, taking a
-- shared piece on a square of its pattern (the taken piece goes back to
-- the shared hand, and the capturer turns).  Never offered: the King
-- taking a piece that gives check, and a checking piece capturing (it
-- belongs to the opponent this turn).  Option own_shared_capture:
--   allow  (default) any other such capture, checking piece or not;
--   forbid only a shared piece taking a piece that gives check.
local allow = rules.own_shared_capture ~= "forbid"
local N, NAME, covers = gufuu.N, gufuu.NAME, gufuu.covers

-- CAPTURE[i][j]: the move table of a capture from square i to j, made
-- once (the engine only reads the tables a hook returns).
local CAPTURE = {}
for i = 1, N do
  CAPTURE[i] = {}
  for j = 1, N do
    CAPTURE[i][j] = {kind = "capture", from = NAME[i], to = NAME[j]}
  end
end

local checking = {}   -- scratch: checking[i], square i gives check

effect{
  name = "shared-capture",
  moves_setup = false,
  moves = function(pos)
    local b, side, list, n = gufuu.scan(pos), pos:side(), {}, 0
    for i = 1, N do checking[i] = covers(b, i) end
    for i = 1, N do
      local p = b[i]
      if p and (p.owner == 2 or p.owner == side) and not checking[i] then
        local reach, shared = p.list[i], p.owner == 2
        for k = 1, #reach do
          local j = reach[k]
          local t = b[j]
          if t and t.owner == 2 and (shared and (allow or checking[j]) or
                                     not shared and allow and not checking[j]) then
            n = n + 1
            list[n] = CAPTURE[i][j]
          end
        end
      end
    end
    return list
  end,
}
