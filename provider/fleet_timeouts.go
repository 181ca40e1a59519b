package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/dwk/fleet/provider/internal/defaults"
)

// timeoutOf is one of timeouts.Value's Create, Update and Delete.
type timeoutOf func(ctx context.Context, def time.Duration) (time.Duration, diag.Diagnostics)

// opContext bounds one operation by its timeout (the timeouts block's,
// else defaults.OperationTimeout).
func opContext(ctx context.Context, get timeoutOf, diags *diag.Diagnostics) (context.Context, context.CancelFunc, time.Duration) {
	timeout, d := get(ctx, defaults.OperationTimeout)
	diags.Append(d...)
	if timeout <= 0 {
		timeout = defaults.OperationTimeout
	}
	opCtx, cancel := context.WithTimeout(ctx, timeout)
	return opCtx, cancel, timeout
}

// observeContext is for recording what the hosts run once an operation
// has ended: it outlives the operation's timeout and Terraform's cancel
// (an interrupted apply still records each host's real state, not
// "unreachable"), bounded by defaults.ObserveTimeout.
func observeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), defaults.ObserveTimeout)
}

// ended adds the error of an operation that its timeout or a cancel cut
// short, and reports whether it was.
func ended(opCtx context.Context, op string, timeout time.Duration, diags *diag.Diagnostics) bool {
	return endedAs(opCtx, "dwk_fleet", op, timeout, diags)
}

// endedAs is ended for a resource of type typ.
func endedAs(opCtx context.Context, typ, op string, timeout time.Duration, diags *diag.Diagnostics) bool {
	switch err := opCtx.Err(); {
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError(fmt.Sprintf("%s: %s timed out after %s", typ, op, timeout),
			fmt.Sprintf("The %s did not finish within timeouts.%s (%s). The state records what each host runs now; "+
				"raise timeouts.%s or make the rollout faster (max_parallel, min_healthy_time) and apply again.", op, op, timeout, op))
		return true
	case errors.Is(err, context.Canceled):
		diags.AddError(typ+": "+op+" interrupted",
			"The "+op+" was cancelled. The state records what each host runs now; apply again to finish.")
		return true
	}
	return false
}
