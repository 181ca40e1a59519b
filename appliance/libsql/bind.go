package libsql

import (
	"strconv"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// bindArgs binds s's arguments the way sqld does: "?NNN" and "?" take
// positional arguments, named parameters take named arguments, matched
// with or without their prefix.
func bindArgs(ps *sqlite.Stmt, s *hrana.Stmt) error {
	if len(s.Args) > 0 && len(s.NamedArgs) > 0 {
		return hrana.Errorf(hrana.CodeArgsBothPositionalAndNamed, "Specifying both positional and named arguments is not supported")
	}
	count := ps.ParamCount()
	supplied := max(len(s.Args), len(s.NamedArgs))
	if supplied > count {
		return argsInvalid("too many parameters, expected %d found %d", count, supplied)
	}
	var named map[string]hrana.Value
	if len(s.NamedArgs) > 0 {
		named = make(map[string]hrana.Value, len(s.NamedArgs))
		for _, a := range s.NamedArgs {
			named[a.Name] = a.Value
		}
	}
	for i := 1; i <= count; i++ {
		name := ps.ParamName(i)
		v, ok := lookupArg(s, named, name, i)
		if !ok {
			if ps.IsExplain() {
				return nil
			}
			if name == "" {
				return argsInvalid("value for parameter %d not found", i)
			}
			return argsInvalid("value for parameter %s not found", name)
		}
		if err := bindValue(ps, i, v); err != nil {
			return argsInvalid("bind parameter %d: %v", i, err)
		}
	}
	return nil
}

func lookupArg(s *hrana.Stmt, named map[string]hrana.Value, name string, index int) (hrana.Value, bool) {
	positional := func(pos int) (hrana.Value, bool) {
		if named != nil || pos < 1 || pos > len(s.Args) {
			return hrana.Value{}, false
		}
		return s.Args[pos-1], true
	}
	switch {
	case name == "":
		return positional(index)
	case name[0] == '?':
		pos, err := strconv.Atoi(name[1:])
		if err != nil {
			return hrana.Value{}, false
		}
		return positional(pos)
	}
	if v, ok := named[name]; ok {
		return v, true
	}
	v, ok := named[name[1:]]
	return v, ok
}

func bindValue(ps *sqlite.Stmt, i int, v hrana.Value) error {
	switch v.Kind {
	case hrana.KindInteger:
		return ps.BindInt64(i, v.Int)
	case hrana.KindFloat:
		return ps.BindFloat(i, v.Float)
	case hrana.KindText:
		return ps.BindText(i, v.Text)
	case hrana.KindBlob:
		return ps.BindBlob(i, v.Blob)
	default:
		return ps.BindNull(i)
	}
}

func argsInvalid(format string, args ...any) *hrana.Error {
	return hrana.Errorf(hrana.CodeArgsInvalid, "Arguments do not match SQL parameters: "+format, args...)
}
