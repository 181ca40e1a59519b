package hrana

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestValueEncode(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Null(), `{"type":"null"}`},
		{Integer(42), `{"type":"integer","value":"42"}`},
		{Integer(math.MinInt64), `{"type":"integer","value":"-9223372036854775808"}`},
		{Float(1.5), `{"type":"float","value":1.5}`},
		{Float(3), `{"type":"float","value":3}`},
		{Float(1e-7), `{"type":"float","value":1e-7}`},
		{Float(1e21), `{"type":"float","value":1e+21}`},
		{Float(math.Inf(1)), `{"type":"float","value":1.7976931348623157e+308}`},
		{Text("héllo \"q\" \\ \n \x00 \u2028"), `{"type":"text","value":"héllo \"q\" \\ \n \u0000 \u2028"}`},
		{Text("bad \xff utf8"), `{"type":"text","value":"bad \ufffd utf8"}`},
		{Blob([]byte("hi")), `{"type":"blob","base64":"aGk"}`},
		{Blob(nil), `{"type":"blob","base64":""}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.v)
		if err != nil {
			t.Errorf("marshal %v: %v", tt.v, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("marshal %v = %s, want %s", tt.v, got, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("marshal %v produced invalid JSON %s", tt.v, got)
		}
	}
	if _, err := json.Marshal(Value{}); err == nil {
		t.Error("marshalling a value without kind succeeded")
	}
}

func TestValueDecode(t *testing.T) {
	tests := []struct {
		in   string
		want Value
		err  string
	}{
		{in: `{"type":"null"}`, want: Null()},
		{in: `{"type":"integer","value":"-9223372036854775808"}`, want: Integer(math.MinInt64)},
		{in: `{"type":"integer","value":"+7"}`, want: Integer(7)},
		{in: `{"type":"float","value":1.5,"extra":true}`, want: Float(1.5)},
		{in: `{"type":"text","value":"日本"}`, want: Text("日本")},
		{in: `{"type":"blob","base64":"aGk"}`, want: Blob([]byte("hi"))},
		{in: `{"type":"blob","base64":"aGk="}`, want: Blob([]byte("hi"))},
		{in: `{"type":"blob","base64":""}`, want: Blob(nil)},
		{in: `{"type":"integer","value":42}`, err: "decimal integer as a string"},
		{in: `{"type":"integer","value":"9223372036854775808"}`, err: "not a 64-bit"},
		{in: `{"type":"integer"}`, err: "missing"},
		{in: `{"type":"float","value":"1.5"}`, err: "JSON number"},
		{in: `{"type":"text","value":null}`, err: "missing"},
		{in: `{"type":"blob","base64":"%%"}`, err: "base64"},
		{in: `{"type":"blob"}`, err: "base64"},
		{in: `{"type":"date","value":"x"}`, err: "unknown value type"},
		{in: `{"value":"1"}`, err: "missing \"type\""},
		{in: `[]`, err: "value"},
	}
	for _, tt := range tests {
		var got Value
		err := json.Unmarshal([]byte(tt.in), &got)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("decode %s: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("decode %s: %v", tt.in, err)
			continue
		}
		if got.Kind != tt.want.Kind || got.String() != tt.want.String() {
			t.Errorf("decode %s = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValueRoundTrip(t *testing.T) {
	for _, v := range []Value{Integer(math.MaxInt64), Float(-0.1), Float(math.SmallestNonzeroFloat64), Text(""), Text("\t\"x\""), Blob([]byte{0, 255, 128})} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back Value
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("decode %s: %v", data, err)
		}
		if back.String() != v.String() || back.Kind != v.Kind {
			t.Errorf("round trip %v -> %s -> %v", v, data, back)
		}
	}
}

func TestRowIDJSON(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want RowID
	}{{`"12"`, SomeRowID(12)}, {`12`, SomeRowID(12)}, {`null`, RowID{}}} {
		var got RowID
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil || got != tt.want {
			t.Errorf("decode %s = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	if b, _ := json.Marshal(SomeRowID(-5)); string(b) != `"-5"` {
		t.Errorf("encode = %s", b)
	}
	if b, _ := json.Marshal(RowID{}); string(b) != `null` {
		t.Errorf("encode none = %s", b)
	}
}
