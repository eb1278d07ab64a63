-- Generated from the stock Lua 5.4 string library: each call of the
-- sandbox's own find, match, gmatch and gsub must give what Lua's gives
-- (tests/unit/test_script.c loads this file; a difference fails the load).
local cases = {
  {{"find", "hello world", "o w"}, {true, 5, 7}, 3},
  {{"find", "hello world", "l+"}, {true, 3, 4}, 3},
  {{"find", "hello world", "l+", 5}, {true, 10, 10}, 3},
  {{"find", "hello world", "o", -3}, {true, nil}, 2},
  {{"find", "hello world", "xyz"}, {true, nil}, 2},
  {{"find", "a.b", ".", 1, true}, {true, 2, 2}, 3},
  {{"find", "a+b", "+"}, {true, 2, 2}, 3},
  {{"find", "abc", "", 10}, {true, nil}, 2},
  {{"find", "abc", "", 4}, {true, 4, 3}, 3},
  {{"find", "abc", "b()"}, {true, 2, 2, 3}, 4},
  {{"find", "key = val", "(%w+)%s*=%s*(%w+)"}, {true, 1, 9, "key", "val"}, 5},
  {{"match", "  trim me  ", "^%s*(.-)%s*$"}, {true, "trim me"}, 2},
  {{"match", "e10", "^(%a)(%d+)$"}, {true, "e", "10"}, 3},
  {{"match", "K@n", "^(%*?)(%u)@?([nesw]?)$"}, {true, "", "K", "n"}, 4},
  {{"match", "f(a(b)c)d", "%b()"}, {true, "(a(b)c)"}, 2},
  {{"match", "THE (quick) fox", "%f[%a]%a+"}, {true, "THE"}, 2},
  {{"match", "hello", "()ll()"}, {true, 3, 5}, 3},
  {{"match", "hello", "(h)(e)(l)%3(o)"}, {true, "h", "e", "l", "o"}, 5},
  {{"match", "x\0y", "%z"}, {true, "\0"}, 2},
  {{"match", "date 2024-05-01", "(%d+)-(%d+)-(%d+)"}, {true, "2024", "05", "01"}, 4},
  {{"match", "[tag]", "^%[(.*)%]$"}, {true, "tag"}, 2},
  {{"match", "a-c", "[a-]+"}, {true, "a-"}, 2},
  {{"match", "]]x", "[]]+"}, {true, "]]"}, 2},
  {{"match", "abc]", "[^]]+"}, {true, "abc"}, 2},
  {{"match", "AbC1_", "[%u%d_]+"}, {true, "A"}, 2},
  {{"match", "hello", ".-l"}, {true, "hel"}, 2},
  {{"match", "hello", ".*l"}, {true, "hell"}, 2},
  {{"match", "$100", "%$(%d+)"}, {true, "100"}, 2},
  {{"match", "end$", "d%$$"}, {true, "d$"}, 2},
  {{"match", "aaa", "^(a-)a$"}, {true, "aa"}, 2},
  {{"match", ("a"):rep(300), ("a?"):rep(200)}, {false, "pattern too complex"}, 2},
  {{"match", "abc", "[a-"}, {false, "malformed pattern (missing ']')"}, 2},
  {{"match", "abc", "%"}, {false, "malformed pattern (ends with '%')"}, 2},
  {{"match", "abc", "(()"}, {false, "unfinished capture"}, 2},
  {{"match", "abc", "a)"}, {false, "invalid pattern capture"}, 2},
  {{"match", "abc", "%1"}, {false, "invalid capture index %1"}, 2},
  {{"match", "abc", "%f"}, {false, "missing '[' after '%f' in pattern"}, 2},
  {{"match", "abc", "%b"}, {false, "malformed pattern (missing arguments to '%b')"}, 2},
  {{"match", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", ("(a)"):rep(33)}, {false, "too many captures"}, 2},
  {{"gsub", "hello world", "o", "0"}, {true, "hell0 w0rld", 2}, 3},
  {{"gsub", "hello world", "(%w+)", "<%1>"}, {true, "<hello> <world>", 2}, 3},
  {{"gsub", "hello world", "%w+", "%0 %0", 1}, {true, "hello hello world", 1}, 3},
  {{"gsub", "hello world", "()(o)()", "%1-%2-%3"}, {true, "hell5-o-6 w8-o-9rld", 2}, 3},
  {{"gsub", "hello world", "", "-"}, {true, "-h-e-l-l-o- -w-o-r-l-d-", 12}, 3},
  {{"gsub", "hello world", "%w*", "<%0>"}, {true, "<hello> <world>", 2}, 3},
  {{"gsub", "abc", "^", "x"}, {true, "xabc", 1}, 3},
  {{"gsub", "abc", "$", "x"}, {true, "abcx", 1}, 3},
  {{"gsub", "a.b.c", "%.", "%%"}, {true, "a%b%c", 2}, 3},
  {{"gsub", "abc", "%w", {["a"] = "1", ["b"] = true}}, {false, "invalid replacement value (a boolean)"}, 2},
  {{"gsub", "abc", "%w", {["a"] = "1", ["b"] = false}}, {true, "1bc", 3}, 3},
  {{"gsub", "$x, $y", "%$(%w+)", {["x"] = 1, ["y"] = 2.5}}, {true, "1, 2.5", 2}, 3},
  {{"gsub", "abc", "b", "%9"}, {false, "invalid capture index %9"}, 2},
  {{"gsub", "abc", "b", "%"}, {false, "invalid use of '%' in replacement string"}, 2},
  {{"gsub", "abc", "b", "%x"}, {false, "invalid use of '%' in replacement string"}, 2},
  {{"gsub", "abc", "b"}, {false, "bad argument #3 to 'string.gsub' (string/function/table expected, got nil)"}, 2},
  {{"gsub", 12345, 3, 9}, {true, "12945", 1}, 3},
  {{"gmatch", "one two  three", "%a+"}, {true, "one|two|three"}, 2},
  {{"gmatch", "k=v, a=b", "(%w+)=(%w+)"}, {true, "k,v|a,b"}, 2},
  {{"gmatch", "abc", ""}, {true, "|||"}, 2},
  {{"gmatch", "^a^a", "^a"}, {true, "^a|^a"}, 2},
  {{"gmatch", "abcd", ".", 3}, {true, "c|d"}, 2},
  {{"gmatch", "abcd", "()", -2}, {true, "3|4|5"}, 2},
}
local function show(t, n)
  local out = {}
  for i = 1, n do out[i] = type(t[i]) == "string" and ("%q"):format(t[i]) or tostring(t[i]) end
  return table.concat(out, ", ")
end
for i, c in ipairs(cases) do
  local call, want, count = c[1], c[2], c[3]
  local got, n
  if call[1] == "gmatch" then
    local seen = {}
    local it = string.gmatch(call[2], call[3], call[4])
    for k = 1, 10 do
      local r = table.pack(pcall(it))
      if not r[1] then seen[#seen + 1] = "error: " .. r[2] break end
      if r[2] == nil then break end
      seen[#seen + 1] = table.concat({table.unpack(r, 2, r.n)}, ",")
    end
    got, n = {true, table.concat(seen, "|")}, 2
  else
    got = table.pack(pcall(string[call[1]], table.unpack(call, 2, 6)))
    n = got.n
  end
  local same = n == count
  for k = 1, n do
    same = same and got[k] == want[k] and math.type(got[k]) == math.type(want[k])
  end
  if not same then
    error(("pattern case %d (string.%s): got %s, Lua gives %s"):format(i, call[1],
          show(got, n), show(want, count)))
  end
end
effect{name = "patterns"}
