import { describe, expect, it } from "vitest";
import { toolResultForModel } from "./native-agent";

describe("toolResultForModel", () => {
  const output = {
    verdict: "works",
    summary: "Checked: builds, types, no runtime errors",
    image: { data: "/9j/AAAA", mediaType: "image/jpeg" },
  };

  it("sends the screenshot as an image part to a model that takes images", () => {
    expect(toolResultForModel(output, true)).toEqual({
      type: "content",
      value: [
        {
          type: "text",
          text: JSON.stringify({
            verdict: "works",
            summary: "Checked: builds, types, no runtime errors",
          }),
        },
        { type: "image-data", data: "/9j/AAAA", mediaType: "image/jpeg" },
      ],
    });
  });

  it("leaves the image out for other models, and passes plain outputs through as JSON", () => {
    expect(toolResultForModel(output, false)).toEqual({
      type: "json",
      value: { verdict: "works", summary: "Checked: builds, types, no runtime errors" },
    });
    expect(toolResultForModel({ ok: true }, true)).toEqual({ type: "json", value: { ok: true } });
    expect(toolResultForModel("text", true)).toEqual({ type: "json", value: "text" });
  });
});
