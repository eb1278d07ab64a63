-- Hostile: unbounded recursion.
local function deep(n)
  return 1 + deep(n + 1)
end

effect{
  name = "recursion",
  after = function(pos, move)
    if pos:var(1) == 1 then return deep(1) > 0 end
    return false
  end,
}
