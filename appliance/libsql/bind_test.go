package libsql

import (
	"testing"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

func TestBindArgs(t *testing.T) {
	s := startServer(t, Config{})
	named := func(sql string, args ...hrana.NamedArg) hrana.StreamRequest {
		st := hrana.NewStmt(sql)
		st.NamedArgs = args
		return hrana.StreamRequest{Type: hrana.TypeExecute, Stmt: &st}
	}
	both := hrana.NewStmt("SELECT ?, :a", hrana.Integer(1))
	both.NamedArgs = []hrana.NamedArg{{Name: "a", Value: hrana.Integer(2)}}
	tests := []struct {
		req  hrana.StreamRequest
		want string // first row rendered, or an error code
	}{
		{exec("SELECT ?, ?", hrana.Integer(1), hrana.Text("x")), `1 "x"`},
		{exec("SELECT ?2, ?1", hrana.Integer(1), hrana.Integer(2)), `2 1`},
		{named("SELECT :a, @b, $c", hrana.NamedArg{Name: ":a", Value: hrana.Integer(1)}, hrana.NamedArg{Name: "b", Value: hrana.Null()}, hrana.NamedArg{Name: "$c", Value: hrana.Float(0.5)}), `1 NULL 0.5`},
		{exec("SELECT ?", hrana.Integer(1), hrana.Integer(2)), hrana.CodeArgsInvalid},
		{exec("SELECT ?, ?", hrana.Integer(1)), hrana.CodeArgsInvalid},
		{named("SELECT :a", hrana.NamedArg{Name: "b", Value: hrana.Integer(1)}), hrana.CodeArgsInvalid},
		{exec("SELECT :a", hrana.Integer(1)), hrana.CodeArgsInvalid},
		{hrana.StreamRequest{Type: hrana.TypeExecute, Stmt: &both}, hrana.CodeArgsBothPositionalAndNamed},
		{exec("EXPLAIN SELECT ?"), ""},
	}
	for _, tt := range tests {
		_, resp, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{tt.req, closeReq()}}, nil)
		if resp == nil {
			t.Fatalf("%s: %s", *tt.req.Stmt.SQL, raw)
		}
		r := resp.Results[0]
		got := ""
		if r.Error != nil {
			got = r.Error.Code
		} else if rows := r.Response.Execute.Rows; len(rows) > 0 && tt.want != "" {
			for i, v := range rows[0] {
				if i > 0 {
					got += " "
				}
				got += v.String()
			}
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q (%s)", *tt.req.Stmt.SQL, got, tt.want, raw)
		}
	}
}
