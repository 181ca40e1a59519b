const label: string = "cts";
module.exports = { label };
