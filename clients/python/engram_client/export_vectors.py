from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class ExportVectors(BaseModel):
    export_vectors: "ExportVectorsExportVectors" = Field(alias="exportVectors")


class ExportVectorsExportVectors(BaseModel):
    jsonl: str
    nodes: int
    total_nodes: int = Field(alias="totalNodes")
    end_cursor: Optional[str] = Field(alias="endCursor")


ExportVectors.model_rebuild()
