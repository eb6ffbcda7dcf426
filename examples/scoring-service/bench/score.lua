-- wrk script: GET /score/{id} over every customer in a fixed stride, so that each request reads another row.
local counter = 0
local customers = tonumber(os.getenv("CUSTOMERS") or "20000")

request = function()
  counter = counter + 1
  return wrk.format("GET", "/score/" .. ((counter * 7919) % customers + 1))
end
