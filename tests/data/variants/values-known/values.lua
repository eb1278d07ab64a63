-- values.lua: random material after each side's first move, then a
-- result drawn from a logistic model with weights gem 2, stone 1.
local weight = {gem = 2, stone = 1}

local function material(pos)
  local w = 0
  for face, k in pairs(weight) do
    w = w + k * (#pos:find(face, 0) - #pos:find(face, 1))
  end
  return w
end

effect{
  name = "thin",
  after = function(pos, move)
    local side = pos:ply() % 2 -- the mover: white moves on even plies
    if pos:ply() > 1 then return false end
    for face in pairs(weight) do
      for _, at in ipairs(pos:find(face, side)) do
        if math.random(2) == 1 then pos:remove(at.square) end
      end
    end
    return false
  end,
}

effect{
  name = "decide",
  result = function(pos)
    if pos:ply() < 12 then return nil end
    local p = 1 / (1 + math.exp(-material(pos)))
    return math.random() < p and "0" or "1", "material"
  end,
}
