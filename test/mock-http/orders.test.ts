// The order lookups (4.10, 4.12, 4.14), called through the generated client.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, responseExample } from "../support/contract.ts";
import { ORDER_ID } from "../support/calls.ts";
import { client, prefer } from "../support/mock.ts";

const path = { order_id: ORDER_ID };

describe("GET /v3/order/{order_id}/psc/info", () => {
  it("lists patient service centers within the default radius", async () => {
    const { data, response } = await client().GET("/v3/order/{order_id}/psc/info", { params: { path } });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("getOrderPscInfo", 200, "two_centers"));
  });

  it("takes a radius and several capabilities", async () => {
    const { data, response } = await client().GET("/v3/order/{order_id}/psc/info", {
      params: { path, query: { radius: 100, capabilities: ["stat", "appointment_scheduling_with_lab"] } },
    });
    expect(response.status).toBe(200);
    assertMatchesContract("getOrderPscInfo", 200, data);
  });

  it("returns no centers when none is in the radius", async () => {
    const { data } = await client().GET("/v3/order/{order_id}/psc/info", { params: { path, query: { radius: 10 } }, ...prefer("example=none_in_radius") });
    expect(data?.patient_service_centers).toEqual([]);
  });
});

describe("GET /v3/order/{order_id}/phlebotomy/appointment", () => {
  it("returns a scheduled appointment with its events", async () => {
    const { data, response } = await client().GET("/v3/order/{order_id}/phlebotomy/appointment", { params: { path } });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("getOrderPhlebotomyAppointment", 200, "scheduled"));
    expect(data?.events.length).toBeGreaterThan(0);
  });

  it("returns a cancelled appointment with no times", async () => {
    const { data } = await client().GET("/v3/order/{order_id}/phlebotomy/appointment", { params: { path }, ...prefer("example=cancelled") });
    expect(data?.status).toBe("cancelled");
    expect(data?.start_at).toBeNull();
  });
});

describe("GET /v3/orders", () => {
  it("filters orders by interpretation", async () => {
    const { data, response } = await client().GET("/v3/orders", { params: { query: { interpretation: "abnormal", page: 1, size: 10 } } });
    expect(response.status).toBe(200);
    expect(data?.orders.every((order) => order.interpretation === "abnormal")).toBe(true);
  });

  it("lists every order without a filter, some with no interpretation", async () => {
    const { data } = await client().GET("/v3/orders");
    expect(data).toEqual(responseExample("listOrders", 200, "all_orders"));
    expect(data?.orders.some((order) => order.interpretation === null)).toBe(true);
  });
});
