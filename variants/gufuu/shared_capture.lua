-- shared_capture.lua: captures of shared pieces.  The engine sees a shared
-- piece as the mover's own, so it never offers to take one; this effect
-- adds those captures: the mover's King, or a shared piece, taking a
-- shared piece on a square of its pattern (the taken piece goes back to
-- the shared hand, and the capturer turns).  Never offered: the King
-- taking a piece that gives check, and a checking piece capturing (it
-- belongs to the opponent this turn).  Option own_shared_capture:
--   allow  (default) any other such capture, checking piece or not;
--   forbid only a shared piece taking a piece that gives check.
--
-- The captures come in the order of the capturer's square, then of its
-- pattern (gufuu.LIST): that order is the order of the moves.
local allow = rules.own_shared_capture ~= "forbid"
local N, NAME, covers = gufuu.N, gufuu.NAME, gufuu.covers
local ROLE, SHARED, TLIST = gufuu.ROLE, gufuu.SHARED, gufuu.TLIST

-- CAPTURE[i][j]: the move table of a capture from square i to j, made
-- once (the engine only reads the tables a hook returns).
local CAPTURE = {}
for i = 1, N do
  CAPTURE[i] = {}
  for j = 1, N do
    CAPTURE[i][j] = {kind = "capture", from = NAME[i], to = NAME[j]}
  end
end

-- Any board: every piece of the mover's or shared, that gives no check,
-- takes every shared piece in its pattern that the option allows.
local checking = {}   -- scratch: checking[i], square i gives check
local function general(pos, side)
  local b, list, n = gufuu.scan(pos), {}, 0
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
end

-- The King on ks (token kt) takes the shared pieces on s1 (if ok1) and
-- s2 (if ok2) that its pattern holds, in the pattern's order.
local function king_takes(list, n, ks, kt, s1, ok1, s2, ok2)
  local reach = TLIST[kt][ks]
  for k = 1, #reach do
    local j = reach[k]
    if (j == s1 and ok1) or (j == s2 and ok2) then
      n = n + 1
      list[n] = CAPTURE[ks][j]
    end
  end
  return n
end

-- The shared piece on sa (token ta) takes the one on sb, if ok and its
-- pattern holds sb.
local function shared_takes(list, n, sa, ta, sb, ok)
  if ok and SHARED[ta][sa][sb] then
    n = n + 1
    list[n] = CAPTURE[sa][sb]
  end
  return n
end

-- The list the hook returns, filled again at each call (the engine only
-- reads it): no table is made per position.
local LIST = {}

-- A Gufuu board (a King a side, at most two shared pieces), read into
-- locals: the same captures as `general`, in the same order.
effect{
  name = "shared-capture",
  moves_setup = false,
  moves = function(pos)
    local side = pos:side()
    local i1, u1, i2, u2, i3, u3, i4, u4, extra = pos:occupied()
    if extra then return general(pos, side) end
    local ks, kt, k0, k1, s1, t1, s2, t2
    -- the (up to) four pieces in board order, as one step of a loop each
    for k = 1, 4 do
      local i, tok
      if k == 1 then i, tok = i1, u1 elseif k == 2 then i, tok = i2, u2
      elseif k == 3 then i, tok = i3, u3 else i, tok = i4, u4 end
      if not tok then break end
      local role = ROLE[tok]
      if role == 2 then
        if t2 then return general(pos, side) end
        if t1 then s2, t2 = i, tok else s1, t1 = i, tok end
      elseif role == 0 and not k0 or role == 1 and not k1 then
        if role == 0 then k0 = i else k1 = i end
        if role == side then ks, kt = i, tok end
      else                                    -- a second King of a side, ...
        return general(pos, side)
      end
    end
    if not t1 then return nil end             -- nothing to take
    local c1, c2 = false, false               -- does s1 / s2 give check?
    if k0 and k1 then
      local set = SHARED[t1][s1]
      c1 = (set[k0] and set[k1]) or false
      if t2 then
        set = SHARED[t2][s2]
        c2 = (set[k0] and set[k1]) or false
      end
    end
    local list, n = LIST, 0
    local king_ok1, king_ok2 = allow and not c1, t2 and allow and not c2
    if ks and ks < s1 then
      n = king_takes(list, n, ks, kt, s1, king_ok1, s2, king_ok2)
      ks = nil
    end
    if t2 then n = shared_takes(list, n, s1, t1, s2, not c1 and (allow or c2)) end
    if ks and (not s2 or ks < s2) then
      n = king_takes(list, n, ks, kt, s1, king_ok1, s2, king_ok2)
      ks = nil
    end
    if t2 then n = shared_takes(list, n, s2, t2, s1, not c2 and (allow or c1)) end
    if ks then n = king_takes(list, n, ks, kt, s1, king_ok1, s2, king_ok2) end
    for i = n + 1, #list do list[i] = nil end
    return list
  end,
}
