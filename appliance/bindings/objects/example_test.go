package objects_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/worker"
)

// Example shows how a local-mode server wires the runtime: open the alarm
// index, build the runtime over the data directory, bind each object
// namespace into the workers' Bindings, and close in reverse order.
func Example() {
	ctx := context.Background()
	dataDir, _ := os.MkdirTemp("", "dwk-example")
	defer os.RemoveAll(dataDir)

	alarms, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dataDir, "alarms.sqlite"))
	if err != nil {
		panic(err)
	}
	defer alarms.Close() // after the runtime

	envs := map[string]*worker.Env{} // object class → Env of its worker
	rt := objects.New(objects.Config{
		Secret: []byte("fleet secret from dwk.json"),
		Store:  objlocal.NewStore(dataDir),
		Alarms: alarms,
		Env:    func(class string) *worker.Env { return envs[class] },
		Logger: slog.New(slog.DiscardHandler),
	})
	if err := rt.Open(ctx); err != nil {
		panic(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		rt.Close(ctx) // drains: WebSockets get 1012
	}()

	// worker "demo" binds class objects_test.Echo as ECHO.
	ns, err := rt.Namespace("ECHO", echoClass)
	if err != nil {
		panic(err)
	}
	env := worker.NewEnv("demo", worker.Bindings{Objects: map[string]worker.ObjectNamespace{"ECHO": ns}})
	envs[echoClass] = env

	stub := env.Object("ECHO").Get(env.Object("ECHO").IDFromName("hello"))
	resp, err := stub.Fetch(ctx, httptest.NewRequest("GET", "http://object/", nil))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output: 200
}
