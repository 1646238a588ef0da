from .base_model import BaseModel


class Users(BaseModel):
    users: list["UsersUsers"]


class UsersUsers(BaseModel):
    user: str


Users.model_rebuild()
