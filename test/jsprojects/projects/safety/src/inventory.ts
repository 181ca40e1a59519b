// Stock-keeping whose failure is not caught by anyone: the exception
// leaves the handler, and the host logs it with this file's line.

export class InventoryError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "InventoryError";
	}
}

interface Item {
	sku: string;
	count: number;
}

export function reserve(items: Item[], sku: string): Item {
	const item = items.find((i) => i.sku === sku);
	if (item === undefined || item.count === 0) {
		throw new InventoryError(`out of stock: ${sku}`); // the throw site the tests look for
	}
	item.count--;
	return item;
}

export async function reserveLater(items: Item[], sku: string): Promise<Item> {
	await new Promise((r) => setTimeout(r, 10));
	return reserve(items, sku);
}
