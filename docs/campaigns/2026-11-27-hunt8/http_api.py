"""Odd requests to numacube's HTTP API; prints status and body of each, and flags 500s, non-JSON errors and stack
traces. usage: http.py URL"""
import json, socket, sys, urllib.request, urllib.parse

URL = sys.argv[1]

def send(method, path, body=None, ctype=None, headers=None):
    h = dict(headers or {})
    if ctype:
        h["Content-Type"] = ctype
    data = body if isinstance(body, (bytes, type(None))) else body.encode()
    req = urllib.request.Request(URL + path, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()

def case(name, method, path, body=None, ctype="application/json", headers=None):
    st, raw = send(method, path, body, ctype, headers)
    text = raw.decode("utf-8", "replace")
    flag = ""
    if st >= 500 and st not in (503, 504):
        flag += " !!5xx"
    if st >= 400:
        try:
            j = json.loads(raw)
            if "error" not in j or "code" not in j["error"]:
                flag += " !!no-code"
        except Exception:
            flag += " !!not-json"
    if "at io.numacube" in text or "Exception" in text:
        flag += " !!trace?"
    print(f"[{st}]{flag} {name}: {text[:400]}")

def q(name, obj, **kw):
    case(name, "POST", "/v1/query", json.dumps(obj) if not isinstance(obj, (str, bytes)) else obj, **kw)

if __name__ == "__main__":
    q("missing sql", {})
    q("sql null", {"sql": None})
    q("sql number", {"sql": 5})
    q("sql array", {"sql": ["SELECT 1"]})
    q("empty sql", {"sql": ""})
    q("only comment", {"sql": "-- hi"})
    q("two statements", {"sql": "SELECT 1; SELECT 2"})
    q("trailing semicolon", {"sql": "SELECT 1;"})
    q("not json", "SELECT 1")
    q("json array body", "[1,2]")
    q("json string body", '"SELECT 1"')
    q("truncated json", '{"sql": "SELECT 1"')
    q("duplicate keys", '{"sql": "SELECT 1", "sql": "SELECT 2"}')
    q("unknown field", {"sql": "SELECT 1", "foo": 1})
    q("params not array", {"sql": "SELECT $1", "params": 5})
    q("params object", {"sql": "SELECT $1", "params": {"a": 1}})
    q("params nested array", {"sql": "SELECT $1", "params": [[1, 2]]})
    q("params nested obj", {"sql": "SELECT $1", "params": [{"a": 1}]})
    q("param huge int", '{"sql": "SELECT $1", "params": [123456789012345678901234567890]}')
    q("param 2^63", '{"sql": "SELECT $1", "params": [9223372036854775808]}')
    q("param -2^63", '{"sql": "SELECT $1", "params": [-9223372036854775808]}')
    q("param 2^63-1 + 1", '{"sql": "SELECT $1 + 1", "params": [9223372036854775807]}')
    q("param 1e400", '{"sql": "SELECT $1", "params": [1e400]}')
    q("param 1e-400", '{"sql": "SELECT $1", "params": [1e-400]}')
    q("param 1.0", '{"sql": "SELECT $1", "params": [1.0]}')
    q("param 1e2", '{"sql": "SELECT $1", "params": [1e2]}')
    q("param -0.0", '{"sql": "SELECT $1", "params": [-0.0]}')
    q("param long decimal", '{"sql": "SELECT $1", "params": [0.12345678901234567890123]}')
    q("param NaN", '{"sql": "SELECT $1", "params": [NaN]}')
    q("param string with quote", {"sql": "SELECT $1", "params": ["it's"]})
    q("param string NUL", {"sql": "SELECT $1", "params": ["a\u0000b"]})
    q("param string lone surrogate", '{"sql": "SELECT $1", "params": ["\\ud800"]}')
    q("param bool", {"sql": "SELECT $1", "params": [True]})
    q("param null", {"sql": "SELECT $1", "params": [None]})
    q("param in filter", {"sql": "SELECT COUNT(*) FROM e WHERE b = $1", "params": [9007199254740993]})
    q("param decimal in filter", {"sql": "SELECT id FROM e WHERE d = $1", "params": [1.5]})
    q("param str to bigint", {"sql": "SELECT id FROM e WHERE b = $1", "params": ["9007199254740993"]})
    q("param dollar0", {"sql": "SELECT $0", "params": [1]})
    q("too many params", {"sql": "SELECT 1", "params": [1]})
    q("timeout negative", {"sql": "SELECT 1", "timeout_ms": -1})
    q("timeout string", {"sql": "SELECT 1", "timeout_ms": "5"})
    q("timeout huge", {"sql": "SELECT 1", "timeout_ms": 1e30})
    q("timeout float", {"sql": "SELECT 1", "timeout_ms": 1.5})
    q("query_id number", {"sql": "SELECT 1", "query_id": 5})
    q("query_id huge", {"sql": "SELECT 1", "query_id": "x" * 100000})
    q("text/plain", "SELECT 2", ctype="text/plain")
    q("text/plain charset latin1", "SELECT 'é'".encode("latin-1"), ctype="text/plain; charset=ISO-8859-1")
    q("text/plain bad utf8", b"SELECT '\xff\xfe'", ctype="text/plain")
    q("json bad utf8", b'{"sql": "SELECT \'\xff\'"}')
    q("json utf16", '{"sql": "SELECT 1"}'.encode("utf-16"), ctype="application/json")
    q("json bom", b'\xef\xbb\xbf{"sql": "SELECT 1"}')
    q("no content type", "SELECT 1", ctype=None)
    q("ctype xml", "<q/>", ctype="application/xml")
    q("ctype json with charset", {"sql": "SELECT 3"}, ctype="application/json; charset=utf-8")
    q("ctype JSON upper", {"sql": "SELECT 3"}, ctype="APPLICATION/JSON")
    q("big values", {"sql": "SELECT id, b, d, d4, x, -x, x/0, -x/0, 0*x/0 FROM e ORDER BY id"})
    q("nan/inf values", {"sql": "SELECT CAST('NaN' AS DOUBLE), CAST('inf' AS DOUBLE), -0.0::DOUBLE, 0.0::DOUBLE * -1"})
    q("decimal scale", {"sql": "SELECT 1.50, CAST(1 AS DECIMAL(10,3)), 0.000, -0.00"})
    q("timestamp fraction", {"sql": "SELECT ts FROM e ORDER BY id"})
    q("insert returns", {"sql": "INSERT INTO e (id) VALUES (100)"})
    q("delete it", {"sql": "DELETE FROM e WHERE id = 100"})
    case("GET query", "GET", "/v1/query")
    case("PUT query", "PUT", "/v1/query", "{}")
    case("unknown path", "GET", "/v1/nope")
    case("table unknown", "GET", "/v1/tables/nope")
    case("table e", "GET", "/v1/tables/e")
    case("table encoded", "GET", "/v1/tables/%65")
    case("table dotdot", "GET", "/v1/tables/../health")
    case("cancel unknown", "DELETE", "/v1/queries/nope")
    case("cancel empty", "DELETE", "/v1/queries/")
    case("path with query string", "POST", "/v1/query?x=1", json.dumps({"sql": "SELECT 4"}), "application/json")
